"""Issue 10, defect 2: the round clock and disputes go through the journal's write path, so fifty
of them at once queue on the tournament's lock instead of failing with "database is locked"."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from sqlalchemy.orm import Session

from agon.services import journal, results
from agon.services.schemas import ResultIn
from agon.web.security import table_pin
from tests.web.conftest import BONN_TABLES, SECRET, TestClient, csrf_of


def test_fifty_concurrent_dispute_and_clock_actions_give_no_5xx(
    client: TestClient, director: TestClient, db: Session, bonn: str
) -> None:
    entered = results.enter_result(
        db,
        tournament=bonn,
        round_number=1,
        table=2,
        actor="scorer",
        results=[ResultIn(player=p, vp=40 - i) for i, p in enumerate(BONN_TABLES[1])],
    )
    db.rollback()
    director_headers = {"x-csrf-token": csrf_of(director)}
    with TestClient(client.app) as phone:
        phone_headers = {"x-csrf-token": csrf_of(phone)}
        pin = table_pin(SECRET, bonn, 1, 2)
        unlocked = phone.post(
            "/api/tables/bonn/1/2/unlock", json={"pin": pin}, headers=phone_headers
        )
        assert unlocked.status_code == 200, unlocked.text

        def act(i: int) -> tuple[str, int]:
            if i % 2:
                body = {
                    "player": BONN_TABLES[1][i % 4],
                    "reason": f"recount {i}",
                    "version": entered.version,
                }
                r = phone.post("/api/tables/bonn/1/2/dispute", json=body, headers=phone_headers)
                return "dispute", r.status_code
            clock = {"action": "start", "minutes": 30} if i % 4 == 0 else {"action": "pause"}
            r = director.post(
                "/api/tournaments/bonn/rounds/1/clock", json=clock, headers=director_headers
            )
            return "clock", r.status_code

        with ThreadPoolExecutor(max_workers=50) as pool:
            answers = list(pool.map(act, range(50)))
    assert not [a for a in answers if a[1] >= 500], answers
    # every answer is a success or a clear refusal (a pause before any start: 409)
    assert {code for _, code in answers} <= {200, 201, 409}, answers
    db.rollback()
    entries = journal.list_journal(db, tournament=bonn)
    disputes = [e for e in entries if e.action == "dispute.open"]
    clocks = [e for e in entries if e.action.startswith("clock.")]
    assert (
        len(disputes) == sum(1 for kind, code in answers if kind == "dispute" and code == 201) == 25
    )
    assert len(clocks) == sum(1 for kind, code in answers if kind == "clock" and code == 200)
    assert journal.verify(db, tournament=bonn)
