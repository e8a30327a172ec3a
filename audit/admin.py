from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino_ops.admin_display import hash_text, kv_list, labelled_code, model_label
from casino_ops.admin_utils import ReadOnlyAdmin

from .models import AuditEvent
from .registers import admin as _registers_admin  # noqa: F401  (reports and checkpoints)

# The label of each audited act (the code stays as a caption: it is what searches match).
ACTION_LABELS = {
    "advance_book.corrected": _("carnet d'avances : ligne corrigée"),
    "casino.settings_changed": _("paramètres du casino modifiés"),
    "control_register.corrected": _("registre de contrôle : ligne corrigée"),
    "control_register.day_closed": _("registre de contrôle : journée arrêtée"),
    "depot.cabinet_opened": _("dépôt : armoire ouverte"),
    "depot.correction_recorded": _("dépôt : correction inscrite"),
    "depot.deck_checked": _("dépôt : jeu vérifié"),
    "depot.decks_issued": _("dépôt : jeux remis à une table"),
    "depot.decks_returned": _("dépôt : jeux rendus"),
    "depot.destruction_recorded": _("dépôt : destruction inscrite"),
    "depot.destruction_stamped": _("dépôt : destruction visée"),
    "depot.incident_closed": _("dépôt : incident clos"),
    "depot.incident_reported": _("dépôt : incident déclaré"),
    "depot.key_handed_over": _("dépôt : clé remise"),
    "depot.manufacturer_registered": _("dépôt : fabricant inscrit"),
    "depot.order_created": _("dépôt : bon de commande établi"),
    "depot.order_sent": _("dépôt : bon de commande envoyé"),
    "depot.order_stamped": _("dépôt : bon de commande visé"),
    "depot.reception_recorded": _("dépôt : prise en charge inscrite"),
    "depot.reception_stamped": _("dépôt : prise en charge visée"),
    "depot.settings_changed": _("dépôt : limite de sixains modifiée"),
    "hand_log.received": _("journal de mains reçu"),
    "hand_log.replayed": _("journal de mains rejoué"),
    "session.advance_added": _("séance : avance complémentaire"),
    "session.closed": _("séance clôturée"),
    "session.interrupted": _("séance interrompue"),
    "session.maximum_changed": _("séance : maximum modifié"),
    "session.opened": _("séance ouverte"),
    "session.resumed": _("séance reprise"),
    "shoe.filled": _("sabot garni"),
    "table.created": _("table créée"),
}


class ActionFilter(admin.SimpleListFilter):
    title = _("acte")
    parameter_name = "action"

    def lookups(self, request, model_admin):  # noqa: ANN001, ANN201
        return sorted(((code, label) for code, label in ACTION_LABELS.items()), key=lambda item: str(item[1]))

    def queryset(self, request, queryset):  # noqa: ANN001, ANN201
        return queryset.filter(action=self.value()) if self.value() else queryset


class ObjectTypeFilter(admin.SimpleListFilter):
    title = _("type d'objet")
    parameter_name = "object_type"

    def lookups(self, request, model_admin):  # noqa: ANN001, ANN201
        types = model_admin.get_queryset(request).order_by().values_list("object_type", flat=True).distinct()
        return sorted(((t, model_label(t) or t) for t in types), key=lambda item: str(item[1]))

    def queryset(self, request, queryset):  # noqa: ANN001, ANN201
        return queryset.filter(object_type=self.value()) if self.value() else queryset


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("seq", "recorded_at", "actor_name", "action_display", "object_display")
    list_filter = (ActionFilter, ObjectTypeFilter)
    search_fields = ("=seq", "action", "object_type", "object_id", "actor_name", "payload")
    fields = (
        "seq", "recorded_at", "actor", "actor_name", "action_display", "object_display", "payload_display",
        "prev_hash_display", "hash_display", "sealed_at",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description=_("acte"), ordering="action")
    def action_display(self, obj: AuditEvent) -> str:
        return labelled_code(ACTION_LABELS.get(obj.action, ""), obj.action)

    @admin.display(description=_("objet"), ordering="object_type")
    def object_display(self, obj: AuditEvent) -> str:
        label = model_label(obj.object_type)
        return labelled_code(
            f"{label} n° {obj.object_id}" if label else "", f"{obj.object_type} {obj.object_id}"
        )

    @admin.display(description=_("contenu"))
    def payload_display(self, obj: AuditEvent) -> str:
        return kv_list(obj.payload)

    @admin.display(description=_("empreinte précédente"))
    def prev_hash_display(self, obj: AuditEvent) -> str:
        return hash_text(obj.prev_hash or "")

    @admin.display(description=_("empreinte SHA-256"))
    def hash_display(self, obj: AuditEvent) -> str:
        return hash_text(obj.hash or "")

    list_select_related = False
    show_full_result_count = False

    def has_view_permission(self, request, obj=None):  # noqa: ANN001
        return request.user.has_perm("audit.view_auditevent")
