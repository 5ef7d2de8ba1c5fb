"""A learner's own PIN (issue 20, finding 5): a classmate who types "Ann" with the class code
does not become Ann. The same tests on SQLite and on PostgreSQL (``where`` of test_store.py)."""

from __future__ import annotations

import sqlite3

import pytest

from krypteach.classroom.store import (
    PIN_ROUNDS,
    SCHEMA_VERSION,
    PinError,
    ProgressStore,
    check_pin,
    hash_pin,
    pin_matches,
)

from .test_store import where  # noqa: F401  (the fixture: a fresh SQLite file or PostgreSQL database)


def test_the_first_sign_in_sets_the_pin_and_only_it_signs_in_again(where):  # noqa: F811
    s = ProgressStore(where)
    ann = s.sign_in("K7RPX", "Ann", "4711")
    assert s.sign_in("k7rpx", " Ann ", "4711") == ann  # the same learner, the same PIN
    with pytest.raises(PinError, match=r"^that is not Ann's PIN: if it is yours and you have forgotten it, "
                                       r"ask your teacher to reset it$"):
        s.sign_in("K7RPX", "Ann", "1234")
    bo = s.sign_in("K7RPX", "Bo", "1234")  # another learner may have the same PIN
    assert bo != ann and s.sign_in("K7RPX", "Bo", "1234") == bo
    assert s.sign_in("OTHER", "Ann", "9999") not in (ann, bo)  # another class's Ann is another learner
    # only the hash is kept, salted: the PIN is nowhere in the database
    stored = _pins(s)
    # (a random salt's hex may hold the digits 4711 by chance: the PIN is not one of the fields)
    assert all(p.startswith(f"pbkdf2${PIN_ROUNDS}$") and "4711" not in p.split("$") and len(p.split("$")[3]) == 64
               for p in stored)
    assert len(set(stored)) == len(stored)


def _pins(s: ProgressStore) -> list[str]:
    with s._transaction(write=False) as cur:
        return [str(r[0]) for r in s._run(cur, "SELECT pin FROM learners WHERE pin IS NOT NULL").fetchall()]


def test_a_reset_pin_is_set_again_by_the_next_sign_in_and_changes_the_stamp(where):  # noqa: F811
    s = ProgressStore(where)
    ann = s.sign_in("K7RPX", "Ann", "4711")
    s.record(ann, "03_take_all", "take-all-exercise-1", "exercise", correct=True)
    code, name, stamp = s.learner(ann)
    assert (code, name) == ("K7RPX", "Ann") and stamp is not None and len(stamp) == 16
    assert s.reset_pin(ann) is True and s.learner(ann) == ("K7RPX", "Ann", None)
    assert s.reset_pin(ann + 1000) is False and s.learner(ann + 1000) is None
    assert s.sign_in("K7RPX", "Ann", "2580") == ann  # the new PIN: the same learner, progress kept
    assert len(s.attempts(ann)) == 1
    new_stamp = s.learner(ann)[2]
    assert new_stamp is not None and new_stamp != stamp
    with pytest.raises(PinError):
        s.sign_in("K7RPX", "Ann", "4711")  # the old PIN no longer signs in


def test_a_learner_without_a_pin_sets_one_at_the_next_sign_in(where):  # noqa: F811
    # a learner of an older database, of an imported progress file or of a hub has no PIN yet
    s = ProgressStore(where)
    ann = s.join("K7RPX", "Ann")
    assert s.learner(ann) == ("K7RPX", "Ann", None)
    assert s.sign_in("K7RPX", "Ann", "0000") == ann
    assert s.learner(ann)[2] is not None


@pytest.mark.parametrize("bad", ["", "123", "123456789", "12a4", "12 34", "١٢٣٤", "½234", None])
def test_a_pin_is_four_to_eight_digits(bad, tmp_path):
    with pytest.raises(PinError, match=r"^a PIN is 4 to 8 digits \(0–9\)$"):
        check_pin(bad)
    s = ProgressStore(tmp_path / "p.sqlite3")
    with pytest.raises(PinError):
        s.sign_in("K7RPX", "Ann", bad)
    assert s.learners("K7RPX") == []  # nobody was made


def test_pins_match_only_their_own_hash():
    stored = hash_pin("4711", salt=b"s" * 16)
    assert stored == hash_pin("4711", salt=b"s" * 16) and stored != hash_pin("4711")
    assert pin_matches("4711", stored) and not pin_matches("47110", stored) and not pin_matches("4710", stored)
    kind, rounds, salt, digest = stored.split("$")
    assert (kind, int(rounds), bytes.fromhex(salt)) == ("pbkdf2", PIN_ROUNDS, b"s" * 16)
    for damaged in ("", "pbkdf2$x$00$00", f"md5${rounds}${salt}${digest}", f"pbkdf2${rounds}${salt}${digest}$x"):
        assert not pin_matches("4711", damaged)


def test_a_version_one_database_gets_the_pin_column_and_keeps_its_learners(tmp_path):
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE krypteach_schema (version INTEGER NOT NULL)")
    con.execute("INSERT INTO krypteach_schema VALUES (1)")
    con.execute("CREATE TABLE learners (id INTEGER PRIMARY KEY AUTOINCREMENT, class_code TEXT NOT NULL, "
                "nickname TEXT NOT NULL, created REAL NOT NULL, UNIQUE (class_code, nickname))")
    con.execute("INSERT INTO learners (class_code, nickname, created) VALUES ('K7RPX', 'Ann', 0)")
    for stmt in ("CREATE TABLE items (lesson TEXT NOT NULL, item TEXT NOT NULL, kind TEXT NOT NULL, "
                 "PRIMARY KEY (lesson, item))",
                 "CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, learner_id INTEGER NOT NULL, "
                 "lesson TEXT NOT NULL, item TEXT NOT NULL, kind TEXT NOT NULL, correct INTEGER, rule TEXT, "
                 "topic TEXT, score INTEGER, at REAL NOT NULL)"):
        con.execute(stmt)
    con.commit()
    con.close()
    s = ProgressStore(path)
    assert s.schema_version() == SCHEMA_VERSION
    (ann, name), = s.learners("K7RPX")
    assert name == "Ann" and s.learner(ann) == ("K7RPX", "Ann", None)
    assert s.sign_in("K7RPX", "Ann", "4711") == ann


def test_the_edges_of_a_pin_and_of_a_class_code(tmp_path):
    """Mutation survivors of the PIN code: 8 digits is a PIN; a new salt is 16 bytes; a learner
    signed in with no class code is kept in the class "-" (as ``join`` keeps them)."""
    assert check_pin("12345678") == "12345678" and check_pin("0000") == "0000"
    assert len(bytes.fromhex(hash_pin("4711").split("$")[2])) == 16
    s = ProgressStore(tmp_path / "p.sqlite3")
    ann = s.sign_in("", "Ann", "4711")
    assert s.learner(ann)[:2] == ("-", "Ann") and s.join(" ", "Ann") == ann
