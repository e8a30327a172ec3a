"""URLs of the officers' portal, mounted at ``/inspection/``."""

from django.urls import path

from .views import auth, cabinet, checker, depot, pages, proofs, registers, replay, tables

app_name = "portal"

urlpatterns = [
    path("connexion/", auth.login_view, name="login"),
    path("verification/", auth.verify_view, name="verify"),
    path("deconnexion/", auth.logout_view, name="logout"),
    path("", pages.dashboard, name="dashboard"),
    path("audit/", pages.audit_trail, name="audit_trail"),
    path("audit/verification/", pages.chain_check, name="chain_check"),
    path("registres/", registers.index, name="registers"),
    path("registres/<slug:name>/", registers.register_page, name="register"),
    path("registres/<slug:name>/pdf/", registers.request_pdf, name="register_pdf"),
    path("pdf/<int:report_id>/", registers.download, name="report_download"),
    path("signatures/", checker.signature_checker, name="signature_checker"),
    path("preuves/", proofs.proofs, name="proofs"),
    path("preuves/verificateur.py", proofs.verifier_download, name="proof_verifier"),
    path("preuves/ca.pem", proofs.ca_download, name="proof_ca"),
    path("preuves/points-de-controle/<int:number>/", proofs.checkpoint_download, name="proof_checkpoint"),
    path("jeux/", depot.decks, name="decks"),
    path("jeux/<int:deck_id>/", depot.deck, name="deck"),
    path("visas/", depot.visas, name="visas"),
    path("visas/<slug:kind>/<int:entry_id>/", depot.stamp, name="stamp"),
    path("incidents/", depot.incidents, name="incidents"),
    path("incidents/<int:incident_id>/cloture/", depot.close_incident, name="close_incident"),
    path("auto-inspection/", cabinet.books_inspection, name="books_inspection"),
    path("depot/demande-d-ouverture/", cabinet.demand_opening, name="demand_opening"),
    path("incidents/<int:incident_id>/avis/", cabinet.incident_told, name="incident_told"),
    path("seances/", tables.sessions, name="sessions"),
    path("seances/<int:session_id>/", tables.session, name="session"),
    path("carnet-d-avances/", tables.advance_book, name="advance_book"),
    path("registre-de-controle/", tables.control_register, name="control_register"),
    path("journaux/<int:log_id>/", replay.hand_log, name="hand_log"),
    path("journaux/<int:log_id>/manches/<int:position>/", replay.replay_round, name="replay"),
]
