import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from audit.chain import verify_chain
from audit.models import AuditEvent
from casino_ops import roles
from casino_ops.models import CasinoSettings
from tables.models import Table


def _snapshot():
    User = get_user_model()
    return {
        "users": sorted(User.objects.values_list("username", "password", "is_staff")),
        "groups": sorted(User.objects.values_list("username", "groups__name")),
        "casino": list(CasinoSettings.objects.values()),
        "tables": list(Table.objects.order_by("number").values()),
        "events": list(AuditEvent.objects.order_by("seq").values_list("seq", "hash")),
    }


@pytest.mark.django_db
def test_seed_demo_refuses_a_database_holding_acts(demo, capsys):
    """A second seeding (a live copy two days later) writes nothing, creates no user and prints
    no secret: the database holds acts (FR art. 68)."""
    from django.core.management import CommandError

    first = _snapshot()
    assert "demo-directeur" in demo.output
    with pytest.raises(CommandError) as refused:
        call_command("seed_demo")
    assert "SEED_DATABASE_IN_SERVICE" in str(refused.value) and "FR art. 68" in str(refused.value)
    assert _snapshot() == first
    assert "secret" not in capsys.readouterr().out
    call_command("seed_demo", "--if-empty")  # the quick start's restart: nothing done, exit 0
    out = capsys.readouterr().out
    assert "nothing seeded" in out and "secret" not in out and "demo-" not in out
    assert _snapshot() == first
    assert CasinoSettings.objects.get().profile == "FR"
    assert Table.objects.count() == 4
    User = get_user_model()
    for role in roles.ALL_ROLES:
        assert User.objects.filter(groups__name=role).count() == 1
    assert verify_chain().ok


@pytest.mark.django_db
def test_demo_director_logs_into_the_admin(demo, client):
    assert client.login(username="directeur", password="demo-directeur")
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_the_demo_follows_the_procedure_and_the_books_inspect_clean(demo, capsys):
    """seed_demo on a fresh database, then inspect_books finds no breach (exit 0): every shoe
    filled from checked decks, every deck of a closed day back, the director's discrepancies
    acknowledged, the incidents reported and closed."""
    try:
        call_command("inspect_books")
        code = 0
    except SystemExit as exit_info:
        code = exit_info.code
    out = capsys.readouterr()
    assert code in (0, None), out.out + out.err
