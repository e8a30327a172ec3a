"""The card depot (FR art. 39-40, LU art. 6-7).

The books of the depot, as the regulation keeps them on paper:

- :class:`Manufacturer` — the makers approved by the ministry (FR: Interior, LU: Finance).
- :class:`Book` — a numbered book (order book, FR model n° 21; receipt book, FR model
  n° 19; incident and destruction books). Its row is also the counter of its entries:
  a service locks it ``FOR UPDATE`` and takes ``last_number + 1``, so numbers never
  repeat and never skip.
- :class:`Order` and :class:`OrderLine` — purchase orders, stamped (:class:`Visa`)
  before they are sent.
- :class:`Reception` — a receipt-book entry, with the :class:`Sixain` s and
  :class:`Deck` s received and their serial numbers.
- :class:`KeyHandover` and :class:`CabinetOpening` — the single key and every opening.
- :class:`TableIssue` / :class:`IssueLine` — decks given to a table for a day;
  :class:`TableCheck` — the unsealing/check at the table; :class:`DeckReturn` /
  :class:`ReturnLine` — the return and examination.
- :class:`Incident` / :class:`IncidentClosure`, :class:`Destruction` /
  :class:`DestructionLine`, :class:`Visa`, :class:`Correction`.

Registered entries are never updated or deleted (FR art. 68): a visa, a closure, a
return or a correction is a new row pointing at the entry. The only mutable fields are
a deck's ``status`` (its state machine, changed only by the services) and an order's
``sent_at`` (set once by :func:`cards_registry.services.send_order`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino_ops.validators import DateWindowValidator, validate_date_window, validate_no_control_characters

USER = settings.AUTH_USER_MODEL


class Manufacturer(models.Model):
    """A card maker approved by the ministry (FR art. 39, LU art. 6)."""

    code = models.CharField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("raison sociale"), max_length=200)
    approval_reference = models.CharField(_("référence de l'agrément"), max_length=200)
    ministry = models.CharField(_("ministère"), max_length=200)
    valid_from = models.DateField(_("agréé du"), validators=[DateWindowValidator(years_ahead=50)])
    valid_until = models.DateField(
        _("agréé jusqu'au"), null=True, blank=True, validators=[DateWindowValidator(years_ahead=50)]
    )
    registered_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)
    registered_by = models.ForeignKey(
        USER, verbose_name=_("enregistré par"), on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("fabricant agréé")
        verbose_name_plural = _("fabricants agréés")
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def approved_on(self, day) -> bool:
        return self.valid_from <= day and (self.valid_until is None or day <= self.valid_until)


class BookKind(models.TextChoices):
    ORDER = "order", _("carnet de bons de commande (modèle n° 21)")
    RECEIPT = "receipt", _("carnet de prise en charge (modèle n° 19)")
    INCIDENT = "incident", _("registre des incidents")
    DESTRUCTION = "destruction", _("registre des destructions")


class Book(models.Model):
    """A numbered book; its row is the counter of its entries (locked FOR UPDATE)."""

    kind = models.CharField(_("registre"), max_length=16, choices=BookKind.choices)
    number = models.PositiveIntegerField(_("numéro du carnet"))
    opened_at = models.DateTimeField(_("ouvert le"), auto_now_add=True)
    closed_at = models.DateTimeField(_("clos le"), null=True, blank=True)
    last_number = models.PositiveIntegerField(_("dernier numéro attribué"), default=0)

    class Meta:
        verbose_name = _("carnet numéroté")
        verbose_name_plural = _("carnets numérotés")
        ordering = ["kind", "number"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "number"], name="depot_book_unique_number"),
            models.UniqueConstraint(
                fields=["kind"], condition=models.Q(closed_at__isnull=True), name="depot_book_one_open"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} n° {self.number}"


class Unit(models.TextChoices):
    DECK = "deck", _("jeu")
    SIXAIN = "sixain", _("sixain")


class Order(models.Model):
    """A purchase order from the order book (FR model n° 21), numbered without gaps."""

    book = models.ForeignKey(Book, verbose_name=_("carnet"), on_delete=models.PROTECT, related_name="orders")
    number = models.PositiveIntegerField(_("numéro"))
    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="orders"
    )
    ordered_on = models.DateField(_("date du bon"), validators=[validate_date_window])
    recorded_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("établi par"), on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(
        _("observations"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )
    sent_at = models.DateTimeField(_("envoyé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("bon de commande")
        verbose_name_plural = _("bons de commande")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_order_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Bon n° {self.number} ({self.manufacturer.code})"


class OrderLine(models.Model):
    order = models.ForeignKey(Order, verbose_name=_("bon"), on_delete=models.PROTECT, related_name="lines")
    quantity = models.PositiveIntegerField(_("quantité"))
    unit = models.CharField(_("unité"), max_length=8, choices=Unit.choices)
    back_colour = models.CharField(
        _("couleur du dos"), max_length=32, validators=[validate_no_control_characters]
    )

    class Meta:
        verbose_name = _("ligne de commande")
        verbose_name_plural = _("lignes de commande")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.quantity} {self.get_unit_display()} {self.back_colour}"

    @property
    def decks(self) -> int:
        return self.quantity * (6 if self.unit == Unit.SIXAIN else 1)


class Reception(models.Model):
    """An entry of the receipt book (FR model n° 19, carnet de prise en charge)."""

    book = models.ForeignKey(
        Book, verbose_name=_("carnet"), on_delete=models.PROTECT, related_name="receptions"
    )
    number = models.PositiveIntegerField(_("numéro"))
    order = models.ForeignKey(
        Order, verbose_name=_("bon de commande"), on_delete=models.PROTECT, related_name="receptions"
    )
    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="receptions"
    )
    received_on = models.DateField(_("date de réception"), validators=[validate_date_window])
    delivery_note = models.CharField(
        _("bordereau de livraison"), max_length=100, blank=True, validators=[validate_no_control_characters]
    )
    over_delivery = models.BooleanField(_("livraison excédentaire"), default=False)
    recorded_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("pris en charge par"), on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("prise en charge")
        verbose_name_plural = _("carnet de prise en charge")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_reception_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Prise en charge n° {self.number}"


class Sixain(models.Model):
    """Six decks for blackjack: three of one back colour, three of the other (FR art. 55-4, LU art. 32)."""

    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="sixains"
    )
    serial = models.CharField(
        _("numéro de série"), max_length=64, validators=[validate_no_control_characters]
    )
    reception = models.ForeignKey(
        Reception, verbose_name=_("prise en charge"), on_delete=models.PROTECT, related_name="sixains"
    )

    class Meta:
        verbose_name = _("sixain")
        verbose_name_plural = _("sixains")
        ordering = ["manufacturer__code", "serial"]
        constraints = [
            models.UniqueConstraint(fields=["manufacturer", "serial"], name="depot_sixain_unique_serial"),
        ]

    def __str__(self) -> str:
        return f"Sixain {self.serial}"


class DeckStatus(models.TextChoices):
    IN_CABINET = "in_cabinet", _("au dépôt")
    ISSUED = "issued", _("remis à une table")
    IN_PLAY = "in_play", _("en jeu")
    OUT_OF_USE = "out_of_use", _("hors d'usage (au dépôt)")
    QUARANTINED = "quarantined", _("consigné (incident)")
    DESTROYED = "destroyed", _("détruit")


class Deck(models.Model):
    """A deck of 52 cards, known by its maker's serial number (unique per maker)."""

    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="decks"
    )
    serial = models.CharField(
        _("numéro de série"), max_length=64, validators=[validate_no_control_characters]
    )
    back_colour = models.CharField(
        _("couleur du dos"), max_length=32, validators=[validate_no_control_characters]
    )
    status = models.CharField(
        _("état"), max_length=16, choices=DeckStatus.choices, default=DeckStatus.IN_CABINET
    )
    reception = models.ForeignKey(
        Reception, verbose_name=_("prise en charge"), on_delete=models.PROTECT, related_name="decks"
    )
    sixain = models.ForeignKey(
        Sixain,
        verbose_name=_("sixain"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="decks",
    )
    unsealed_at = models.DateTimeField(_("descellé le"), null=True, blank=True)
    status_before_quarantine = models.CharField(max_length=16, blank=True, editable=False)

    class Meta:
        verbose_name = _("jeu de cartes")
        verbose_name_plural = _("jeux de cartes")
        ordering = ["manufacturer__code", "serial"]
        constraints = [
            models.UniqueConstraint(fields=["manufacturer", "serial"], name="depot_deck_unique_serial"),
        ]
        indexes = [models.Index(fields=["status"], name="depot_deck_status")]

    def __str__(self) -> str:
        return f"Jeu {self.serial} ({self.back_colour})"


class KeyHandover(models.Model):
    """The single key of the cabinet passes from ``giver`` to ``receiver`` (FR art. 39, LU art. 6)."""

    giver = models.ForeignKey(
        USER, verbose_name=_("remise par"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    receiver = models.ForeignKey(
        USER, verbose_name=_("reçue par"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))
    reason = models.CharField(_("motif"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("remise de la clé")
        verbose_name_plural = _("remises de la clé")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Clé → {self.receiver} ({self.at:%d/%m/%Y %H:%M})"


class OpeningPurpose(models.TextChoices):
    RECEPTION = "reception", _("prise en charge")
    ISSUE = "issue", _("remise à une table")
    RETURN = "return", _("retour d'une table")
    DESTRUCTION = "destruction", _("destruction")
    INSPECTION = "inspection", _("inspection demandée par un officier")
    INCIDENT = "incident", _("incident")
    OUT_OF_USE = "out_of_use", _("déclaration hors d'usage")


class CabinetOpening(models.Model):
    """Every opening of the cabinet: who, when, why."""

    opened_by = models.ForeignKey(
        USER, verbose_name=_("ouvert par"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))
    purpose = models.CharField(_("motif"), max_length=16, choices=OpeningPurpose.choices)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    day = models.DateField(_("journée"), null=True, blank=True)
    demand = models.ForeignKey(
        "CabinetDemand",
        verbose_name=_("demande de l'officier"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="openings",
    )
    demanded_by = models.ForeignKey(
        USER,
        verbose_name=_("demandée par (officier)"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    note = models.CharField(_("observations"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("ouverture du dépôt")
        verbose_name_plural = _("ouvertures du dépôt")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Ouverture {self.at:%d/%m/%Y %H:%M} — {self.get_purpose_display()}"


class CabinetDemand(models.Model):
    """An officer's demand to open the cabinet, recorded by the officer himself (FR art. 39, LU art. 6:
    "à tout moment")."""

    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("le"))
    reason = models.CharField(_("motif"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("demande d'ouverture du dépôt")
        verbose_name_plural = _("demandes d'ouverture du dépôt")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Demande d'ouverture du {self.at:%d/%m/%Y %H:%M}"


class CabinetInventory(models.Model):
    """The inventory at an opening demanded by an officer: decks found against the books."""

    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="inventory"
    )
    at = models.DateTimeField(_("le"))
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inventaire par"), on_delete=models.PROTECT, related_name="+"
    )
    expected = models.PositiveIntegerField(_("jeux au dépôt selon les registres"))
    found = models.PositiveIntegerField(_("jeux trouvés"))
    missing = models.JSONField(_("jeux manquants"), default=list, blank=True)
    unexpected = models.JSONField(_("jeux trouvés en trop"), default=list, blank=True)
    incident = models.ForeignKey(
        "Incident",
        verbose_name=_("incident"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = _("inventaire du dépôt")
        verbose_name_plural = _("inventaires du dépôt")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Inventaire du {self.at:%d/%m/%Y %H:%M}"


class OutOfUseDeclaration(models.Model):
    """Decks in the cabinet declared out of use by the casino (FR art. 39 §3, LU art. 6)."""

    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="out_of_use"
    )
    at = models.DateTimeField(_("le"))
    declared_by = models.ForeignKey(
        USER, verbose_name=_("déclaré par"), on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(_("motif"), max_length=300)
    decks = models.ManyToManyField(Deck, verbose_name=_("jeux"), related_name="out_of_use_declarations")

    class Meta:
        verbose_name = _("déclaration hors d'usage")
        verbose_name_plural = _("déclarations hors d'usage")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Hors d'usage le {self.at:%d/%m/%Y %H:%M}"


class TableIssue(models.Model):
    """Decks taken out of the cabinet for a named table and day (FR art. 40, LU art. 7)."""

    table_number = models.PositiveSmallIntegerField(_("table"))
    day = models.DateField(_("journée"))
    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="table_issue"
    )
    issued_by = models.ForeignKey(
        USER, verbose_name=_("remis par"), on_delete=models.PROTECT, related_name="+"
    )
    received_by = models.ForeignKey(
        USER, verbose_name=_("reçu par"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))
    decks = models.ManyToManyField(Deck, through="IssueLine", related_name="issues")

    class Meta:
        verbose_name = _("remise à une table")
        verbose_name_plural = _("remises aux tables")
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["table_number", "day"], name="depot_issue_table_day")]

    def __str__(self) -> str:
        return f"Table {self.table_number} — {self.day:%d/%m/%Y}"


class IssueLine(models.Model):
    issue = models.ForeignKey(TableIssue, on_delete=models.PROTECT, related_name="lines")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="issue_lines")

    class Meta:
        verbose_name = _("jeu remis")
        verbose_name_plural = _("jeux remis")
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["issue", "deck"], name="depot_issue_line_unique")]

    def __str__(self) -> str:
        return f"{self.deck} → table {self.issue.table_number}"


class TableCheck(models.Model):
    """The unsealing (new deck) or check (used deck) at the table (FR art. 40, LU art. 7)."""

    issue_line = models.OneToOneField(
        IssueLine, verbose_name=_("jeu remis"), on_delete=models.PROTECT, related_name="table_check"
    )
    at = models.DateTimeField(_("le"))
    checked_by = models.ForeignKey(
        USER, verbose_name=_("croupier"), on_delete=models.PROTECT, related_name="+"
    )
    witness = models.CharField(_("témoin"), max_length=150)
    new_deck = models.BooleanField(_("jeu neuf descellé"))
    band_intact = models.BooleanField(_("bande de contrôle intacte"), null=True)
    order_checked = models.BooleanField(_("ordre du fabricant vérifié"))
    cards_counted = models.PositiveSmallIntegerField(_("cartes comptées"))
    video_reference = models.CharField(_("référence vidéo"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("descellement / contrôle à la table")
        verbose_name_plural = _("descellements / contrôles à la table")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Contrôle {self.issue_line.deck.serial}"


class ReturnResult(models.TextChoices):
    FIT = "fit", _("apte, remis au dépôt")
    MARKED = "marked", _("hors d'usage : marqué")
    DAMAGED = "damaged", _("hors d'usage : abîmé")
    WORN = "worn", _("hors d'usage : usé")
    QUARANTINED = "quarantined", _("consigné : incident ouvert")


class DeckReturn(models.Model):
    """Decks back from a table after play, put back in maker's order and examined."""

    table_number = models.PositiveSmallIntegerField(_("table"))
    day = models.DateField(_("journée"))
    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="deck_return"
    )
    returned_by = models.ForeignKey(
        USER, verbose_name=_("repris par"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))

    class Meta:
        verbose_name = _("retour d'une table")
        verbose_name_plural = _("retours des tables")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Retour table {self.table_number} — {self.at:%d/%m/%Y %H:%M}"


class ReturnLine(models.Model):
    deck_return = models.ForeignKey(DeckReturn, on_delete=models.PROTECT, related_name="lines")
    issue_line = models.OneToOneField(IssueLine, on_delete=models.PROTECT, related_name="return_line")
    result = models.CharField(_("examen"), max_length=16, choices=ReturnResult.choices)
    order_restored = models.BooleanField(_("ordre du fabricant rétabli"), default=True)
    cards_counted = models.PositiveSmallIntegerField(_("cartes comptées"), default=52)
    remark = models.CharField(
        _("observations"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )

    class Meta:
        verbose_name = _("jeu rendu")
        verbose_name_plural = _("jeux rendus")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.issue_line.deck} : {self.get_result_display()}"


class IncidentKind(models.TextChoices):
    MISSING = "missing", _("carte manquante")
    EXTRA = "extra", _("carte en trop")
    MARKED = "marked", _("carte marquée")
    FOREIGN = "foreign", _("carte étrangère")
    DAMAGED = "damaged", _("carte abîmée")


class IncidentRoute(models.TextChoices):
    """Where the card was found: every route opens the same incident (FR art. 40, LU art. 7)."""

    REPORT = "report", _("signalement")
    RETURN = "return", _("retour d'une table")
    DESTRUCTION = "destruction", _("destruction")
    REPLAY = "replay", _("rejeu d'un journal de donnes")
    INSPECTION = "inspection", _("inventaire à l'ouverture du dépôt")


class Incident(models.Model):
    """An incident reported at once to the officer (FR art. 40, LU art. 7)."""

    book = models.ForeignKey(
        Book, verbose_name=_("registre"), on_delete=models.PROTECT, related_name="incidents"
    )
    number = models.PositiveIntegerField(_("numéro"))
    kind = models.CharField(_("nature"), max_length=16, choices=IncidentKind.choices)
    occurred_at = models.DateTimeField(_("survenu le"), validators=[validate_date_window])
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    day = models.DateField(_("journée"), validators=[validate_date_window])
    shoe_reference = models.CharField(_("sabot"), max_length=64, blank=True)
    decks = models.ManyToManyField(
        Deck, verbose_name=_("jeux concernés"), blank=True, related_name="incidents"
    )
    route = models.CharField(
        _("constaté lors de"), max_length=16, choices=IncidentRoute.choices, default=IncidentRoute.REPORT
    )
    card = models.CharField(
        _("carte en cause"), max_length=150, blank=True, validators=[validate_no_control_characters]
    )
    officer_informed = models.ForeignKey(
        USER,
        verbose_name=_("officier avisé"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    authority_informed = models.CharField(
        _("autorité avisée (chef du service territorial de police judiciaire)"),
        max_length=150,
        blank=True,
        validators=[validate_no_control_characters],
    )
    officer_informed_at = models.DateTimeField(
        _("avisé le"), null=True, blank=True, validators=[validate_date_window]
    )
    circumstances = models.TextField(_("circonstances"), validators=[validate_no_control_characters])
    reported_by = models.ForeignKey(
        USER,
        verbose_name=_("signalé par"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Vide : relevé par le rejeu d'un journal de donnes."),
    )
    recorded_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)

    class Meta:
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_incident_unique_number")
        ]

    def __str__(self) -> str:
        return f"Incident n° {self.number} — {self.get_kind_display()}"

    @property
    def report(self) -> IncidentReport | None:
        """The later record of whom the incident was reported to (when not told on the spot)."""
        return getattr(self, "later_report", None)

    @property
    def told_at(self):
        """When the officer (or the police judiciaire) was told; ``None`` while not yet told."""
        if self.officer_informed_at is not None:
            return self.officer_informed_at
        report = self.report
        return report.informed_at if report else None

    @property
    def told_whom(self) -> str:
        report = self.report if self.officer_informed_at is None else None
        officer = report.officer if report else self.officer_informed
        authority = report.authority if report else self.authority_informed
        if officer is not None:
            return officer.get_full_name() or officer.get_username()
        return authority

    @property
    def report_delay(self):
        """The time between the finding and the report (``None`` while not yet reported)."""
        told = self.told_at
        return None if told is None else told - self.occurred_at


class IncidentReport(models.Model):
    """The report of an incident recorded after it was opened (an incident found by a return,
    a destruction or a replay): whom it was reported to and when (FR art. 40, LU art. 7)."""

    incident = models.OneToOneField(
        Incident, verbose_name=_("incident"), on_delete=models.PROTECT, related_name="later_report"
    )
    officer = models.ForeignKey(
        USER,
        verbose_name=_("officier avisé"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    authority = models.CharField(
        _("autorité avisée (chef du service territorial de police judiciaire)"), max_length=150, blank=True
    )
    informed_at = models.DateTimeField(_("avisé le"))
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("enregistré par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)

    class Meta:
        verbose_name = _("avis d'incident")
        verbose_name_plural = _("avis d'incidents")

    def __str__(self) -> str:
        return f"Avis de l'incident n° {self.incident.number}"


class IncidentClosure(models.Model):
    """The officer closes an incident; the decks leave quarantine (fit, or out of use)."""

    incident = models.OneToOneField(
        Incident, verbose_name=_("incident"), on_delete=models.PROTECT, related_name="closure"
    )
    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("clos le"))
    finding = models.TextField(_("constatations"), validators=[validate_no_control_characters])
    decks_fit = models.ManyToManyField(
        Deck, verbose_name=_("jeux rendus à l'usage"), blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("clôture d'incident")
        verbose_name_plural = _("clôtures d'incidents")

    def __str__(self) -> str:
        return f"Clôture de l'incident n° {self.incident.number}"


class Destruction(models.Model):
    """Decks out of use destroyed in front of an officer (FR art. 39, LU art. 6)."""

    book = models.ForeignKey(
        Book, verbose_name=_("registre"), on_delete=models.PROTECT, related_name="destructions"
    )
    number = models.PositiveIntegerField(_("numéro"))
    at = models.DateTimeField(_("le"))
    officer = models.ForeignKey(
        USER, verbose_name=_("officier témoin"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("détruit par"), on_delete=models.PROTECT, related_name="+"
    )
    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="destruction"
    )
    method = models.CharField(_("mode de destruction"), max_length=150, default="broyage")

    class Meta:
        verbose_name = _("destruction")
        verbose_name_plural = _("destructions")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_destruction_unique_number")
        ]

    def __str__(self) -> str:
        return f"Destruction n° {self.number}"


class DestructionLine(models.Model):
    """The officer's check of one deck: complete and unmarked."""

    destruction = models.ForeignKey(Destruction, on_delete=models.PROTECT, related_name="lines")
    deck = models.OneToOneField(Deck, on_delete=models.PROTECT, related_name="destruction_line")
    complete = models.BooleanField(_("complet"))
    unmarked = models.BooleanField(_("non marqué"))
    remark = models.CharField(_("observations"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("jeu détruit")
        verbose_name_plural = _("jeux détruits")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.deck} détruit"


class Visa(models.Model):
    """An officer's stamp on an order, a receipt-book entry or a destruction."""

    order = models.OneToOneField(Order, null=True, blank=True, on_delete=models.PROTECT, related_name="visa")
    reception = models.OneToOneField(
        Reception, null=True, blank=True, on_delete=models.PROTECT, related_name="visa"
    )
    destruction = models.OneToOneField(
        Destruction, null=True, blank=True, on_delete=models.PROTECT, related_name="visa"
    )
    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("visé le"))
    remark = models.CharField(_("observations"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("visa")
        verbose_name_plural = _("visas")
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(order__isnull=False, reception__isnull=True, destruction__isnull=True)
                    | models.Q(order__isnull=True, reception__isnull=False, destruction__isnull=True)
                    | models.Q(order__isnull=True, reception__isnull=True, destruction__isnull=False)
                ),
                name="depot_visa_one_entry",
            )
        ]

    def __str__(self) -> str:
        return f"Visa de {self.officer} ({self.at:%d/%m/%Y %H:%M})"


# The entries a correction may point at (exactly one per correction).
CORRECTED_ENTRIES = (
    "order",
    "reception",
    "incident",
    "destruction",
    "deck",
    "sixain",
    "table_issue",
    "table_check",
    "deck_return",
    "return_line",
)


def correction_key(model: type[models.Model]) -> str:
    """The field of :class:`Correction` pointing at an entry of ``model`` ("table_issue"…)."""
    import re

    return re.sub(r"(?<!^)(?=[A-Z])", "_", model.__name__).lower()


def _one_entry() -> models.Q:
    condition = models.Q()
    for name in CORRECTED_ENTRIES:
        condition |= models.Q(
            **{f"{name}__isnull": False},
            **{f"{other}__isnull": True for other in CORRECTED_ENTRIES if other != name},
        )
    return condition


class Correction(models.Model):
    """A correction of a registered entry (FR art. 68): a new entry, the old one stays."""

    order = models.ForeignKey(
        Order, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    reception = models.ForeignKey(
        Reception, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    destruction = models.ForeignKey(
        Destruction, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    deck = models.ForeignKey(
        Deck, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    sixain = models.ForeignKey(
        Sixain, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    table_issue = models.ForeignKey(
        TableIssue, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    table_check = models.ForeignKey(
        TableCheck, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    deck_return = models.ForeignKey(
        DeckReturn, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    return_line = models.ForeignKey(
        ReturnLine, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    field = models.CharField(_("rubrique corrigée"), max_length=64)
    old_value = models.CharField(_("ancienne mention"), max_length=300)
    new_value = models.CharField(_("nouvelle mention"), max_length=300)
    reason = models.CharField(_("motif"), max_length=300)
    approval_words = models.CharField(_("approbation en toutes lettres"), max_length=300, blank=True)
    approved_by = models.ForeignKey(
        USER, verbose_name=_("approuvée par (directeur)"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["at", "id"]
        constraints = [models.CheckConstraint(condition=_one_entry(), name="depot_correction_one_entry")]

    def __str__(self) -> str:
        return f"Correction de « {self.field} » ({self.at:%d/%m/%Y})"


class DepotSettings(models.Model):
    """What the ministry fixed for the depot (LU art. 6: the most sixains the casino may hold)."""

    max_sixains = models.PositiveIntegerField(
        _("nombre maximal de sixains (LU)"), null=True, blank=True, help_text=_("Vide : sans limite.")
    )
    incident_report_minutes = models.PositiveIntegerField(
        _("délai d'avis d'un incident (minutes)"),
        default=15,
        help_text=_("Au-delà, l'avis à l'officier est signalé en retard."),
    )
    visa_within_days = models.PositiveIntegerField(
        _("délai de visa (jours)"),
        default=7,
        help_text=_("Au-delà, un bon, une prise en charge ou une destruction non visé est un manquement."),
    )

    class Meta:
        verbose_name = _("paramètres du dépôt")
        verbose_name_plural = _("paramètres du dépôt")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
