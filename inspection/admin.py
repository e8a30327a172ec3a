from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from audit.actions import DECLARED_LABELS, Action, every_action
from audit.models import AuditEvent
from casino_ops.admin_display import (
    hash_text,
    labelled_code,
    model_label,
    object_link,
    objects_by_key,
)
from casino_ops.admin_utils import ReadOnlyAdmin

from .portal import labels
from .registers import admin as _registers_admin  # noqa: F401  (reports and checkpoints)
from .templatetags.portal import readable

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The label of each audited act in the admin's words (the code stays as a caption: it is what
# searches match); an act without one here reads as the portal labels it.
ACTION_LABELS: dict[str, StrOrPromise] = {
    Action.ADVANCE_BOOK_CORRECTED: _("carnet d'avances : ligne corrigée"),
    Action.CASINO_SETTINGS_CHANGED: _("paramètres du casino modifiés"),
    Action.CONTROL_REGISTER_CORRECTED: _("registre de contrôle : ligne corrigée"),
    Action.CONTROL_REGISTER_DAY_CLOSED: _("registre de contrôle : journée arrêtée"),
    Action.DEPOT_CABINET_OPENED: _("dépôt : armoire ouverte"),
    Action.DEPOT_CORRECTION_RECORDED: _("dépôt : correction inscrite"),
    Action.DEPOT_DECK_CHECKED: _("dépôt : jeu vérifié"),
    Action.DEPOT_DECKS_ISSUED: _("dépôt : jeux remis à une table"),
    Action.DEPOT_DECKS_RETURNED: _("dépôt : jeux rendus"),
    Action.DEPOT_DESTRUCTION_RECORDED: _("dépôt : destruction inscrite"),
    Action.DEPOT_DESTRUCTION_STAMPED: _("dépôt : destruction visée"),
    Action.DEPOT_INCIDENT_CLOSED: _("dépôt : incident clos"),
    Action.DEPOT_INCIDENT_REPORTED: _("dépôt : incident déclaré"),
    Action.DEPOT_KEY_HANDED_OVER: _("dépôt : clé remise"),
    Action.DEPOT_MANUFACTURER_REGISTERED: _("dépôt : fabricant inscrit"),
    Action.DEPOT_ORDER_CREATED: _("dépôt : bon de commande établi"),
    Action.DEPOT_ORDER_SENT: _("dépôt : bon de commande envoyé"),
    Action.DEPOT_ORDER_STAMPED: _("dépôt : bon de commande visé"),
    Action.DEPOT_RECEPTION_RECORDED: _("dépôt : prise en charge inscrite"),
    Action.DEPOT_RECEPTION_STAMPED: _("dépôt : prise en charge visée"),
    Action.DEPOT_SETTINGS_CHANGED: _("dépôt : limite de sixains modifiée"),
    Action.DEPOT_MAKER_APPROVAL_STAMPED: _("dépôt : agrément d'un fabricant visé"),
    Action.DEPOT_SIXAIN_CAP_STAMPED: _("dépôt : nombre de sixains du ministère visé"),
    Action.HAND_LOG_RECEIVED: _("journal de mains reçu"),
    Action.HAND_LOG_REPLAYED: _("journal de mains rejoué"),
    Action.SESSION_ADVANCE_ADDED: _("séance : avance complémentaire"),
    Action.SESSION_CLOSED: _("séance clôturée"),
    Action.SESSION_INTERRUPTED: _("séance interrompue"),
    Action.SESSION_MAXIMUM_CHANGED: _("séance : maximum modifié"),
    Action.SESSION_OPENED: _("séance ouverte"),
    Action.SESSION_RESUMED: _("séance reprise"),
    Action.SHOE_FILLED: _("sabot garni"),
    Action.TABLE_CREATED: _("table créée"),
}


def _action_label(code: str) -> StrOrPromise:
    return ACTION_LABELS.get(code) or labels.ACTIONS.get(code) or DECLARED_LABELS.get(code) or ""


class ActionFilter(admin.SimpleListFilter):
    title = _("acte")
    parameter_name = "action"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        return sorted(((code, _action_label(code)) for code in every_action()), key=lambda item: str(item[1]))

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(action=self.value()) if self.value() else queryset


class ObjectTypeFilter(admin.SimpleListFilter):
    title = _("type d'objet")
    parameter_name = "object_type"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        types = model_admin.get_queryset(request).order_by().values_list("object_type", flat=True).distinct()
        return sorted(((t, model_label(t) or t) for t in types), key=lambda item: str(item[1]))

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
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
        return labelled_code(_action_label(obj.action), obj.action)

    @admin.display(description=_("objet"), ordering="object_type")
    def object_display(self, obj: AuditEvent) -> str:
        """The object in words with a link to it (the list's objects read in one query per
        kind: ``get_changelist_instance``); its code stays as a caption, for searches."""
        label = model_label(obj.object_type)
        key = (obj.object_type, str(obj.object_id))
        target = obj._target if hasattr(obj, "_target") else objects_by_key([key]).get(key)
        code = f"{obj.object_type} {obj.object_id}"
        if target is None:
            return labelled_code(label, code)
        return format_html("{}{}", object_link(target, label), labelled_code("", code))

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist = super().get_changelist_instance(request)
        rows = list(changelist.result_list)  # the page's rows, kept by the queryset it displays
        named = objects_by_key((e.object_type, str(e.object_id)) for e in rows)
        for event in rows:
            event._target = named.get((event.object_type, str(event.object_id)))
        return changelist

    @admin.display(description=_("contenu"))
    def payload_display(self, obj: AuditEvent) -> str:
        # the keys by their labels, the values in the page's formats: as the portal's audit trail
        return str(readable(obj.payload, obj.object_type))

    @admin.display(description=_("empreinte précédente"))
    def prev_hash_display(self, obj: AuditEvent) -> str:
        return hash_text(obj.prev_hash or "")

    @admin.display(description=_("empreinte SHA-256"))
    def hash_display(self, obj: AuditEvent) -> str:
        return hash_text(obj.hash or "")

    list_select_related = False
    show_full_result_count = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("audit.view_auditevent")
