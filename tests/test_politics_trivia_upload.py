"""Custom question uploads: CSV and JSON, validated row by row."""
from __future__ import annotations

import json

import pytest

from engines.politics_trivia.answers import matches
from engines.politics_trivia.uploads import MAX_ROWS, MAX_UPLOAD_BYTES, UploadError, from_custom, parse_upload

HEADER = "category,question,answer,wrong1,wrong2,wrong3,state\n"
GOOD_CSV = (HEADER
            + "state,What is the capital of Texas?,Austin,Dallas,Houston,San Antonio,TX\n"
            + "general,\"In which year did the Civil War end, at Appomattox?\",1865,1863,1861,,\n"
            + "gov,Who presides over the Senate?,The Vice President,The Speaker,,,\n"
            + "Politics,Which of these is NOT a branch of government?,The press,Congress,The courts,The President,\n")


def test_good_csv():
    rows = parse_upload("mine.csv", GOOD_CSV.encode())
    assert rows == [
        {"category": "state", "text": "What is the capital of Texas?", "answer": "Austin",
         "wrong": ["Dallas", "Houston", "San Antonio"], "state": "TX"},
        {"category": "general", "text": "In which year did the Civil War end, at Appomattox?", "answer": "1865",
         "wrong": ["1863", "1861"], "state": None},
        {"category": "government", "text": "Who presides over the Senate?", "answer": "The Vice President",
         "wrong": ["The Speaker"], "state": None},
        {"category": "government", "text": "Which of these is NOT a branch of government?", "answer": "The press",
         "wrong": ["Congress", "The courts", "The President"], "state": None},
    ]
    json.dumps(rows)  # storable as-is


def test_good_csv_with_bom_crlf_and_no_state_column():
    text = "\ufeffCategory,Question,Answer,Wrong1,Wrong2,Wrong3\r\ngeneral,Two plus two?,4,3,5,22\r\n"
    rows = parse_upload("x.CSV", text.encode("utf-8"))
    assert rows == [{"category": "general", "text": "Two plus two?", "answer": "4", "wrong": ["3", "5", "22"],
                     "state": None}]


def test_header_aliases_and_exported_rows_upload_again():
    text = "Category,Text,Answer,Wrong 1,Wrong 2\ngeneral,Two plus two?,4,3,5\n"
    assert parse_upload("x.csv", text.encode())[0]["text"] == "Two plus two?"
    rows = parse_upload("mine.csv", GOOD_CSV.encode())
    assert parse_upload("again.json", json.dumps(rows).encode()) == rows


def test_semicolon_csv_from_a_european_spreadsheet():
    text = "category;question;answer;wrong1;wrong2;wrong3\ngeneral;Capital of France?;Paris;Lyon;Nice;\n"
    assert parse_upload("x.csv", text.encode())[0]["answer"] == "Paris"


def test_good_json_both_shapes():
    data = [
        {"category": "state", "question": "Capital of Ohio?", "answer": "Columbus",
         "wrong": ["Cleveland", "Cincinnati"], "state": "oh"},
        {"category": "Government", "question": "Senate term in years?", "answer": 6,
         "wrong1": "2", "wrong2": "4", "wrong3": "8"},
    ]
    rows = parse_upload("q.json", json.dumps(data).encode())
    assert rows[0] == {"category": "state", "text": "Capital of Ohio?", "answer": "Columbus",
                       "wrong": ["Cleveland", "Cincinnati"], "state": "OH"}
    assert rows[1]["answer"] == "6" and rows[1]["wrong"] == ["2", "4", "8"]
    # content sniffing when the name has no extension
    assert parse_upload("questions", json.dumps(data).encode()) == rows


def test_a_state_question_must_name_its_state():
    # it is drawn only in the state it names: without one it could never be asked
    assert _row_error("state,Which state is largest?,Alaska,Texas,,,\n") == (
        "Row 3: a State question must name its state (a postal code like TX in the state column).")


def _row_error(line: str, fname: str = "a.csv") -> str:
    with pytest.raises(UploadError) as exc:
        parse_upload(fname, (HEADER + "general,Fine question?,Yes,No,,,\n" + line).encode())
    return str(exc.value)


@pytest.mark.parametrize("line, message", [
    ("sports,Who won?,Us,Them,,,\n", "Row 3: the category must be state, general or government."),
    (",Who won?,Us,Them,,,\n", "Row 3: the category is missing."),
    ("general,,Us,Them,,,\n", "Row 3: the question is missing."),
    ("general,Who won?,,Them,,,\n", "Row 3: the answer is missing."),
    ("general,Who won?,Us,,,,\n", "Row 3: give at least one wrong choice."),
    ("general,Who won?,Us,us,,,\n", "Row 3: a wrong choice is the same as the answer."),
    ("general,Who won?,Us,Them,THEM!,,\n", "Row 3: the wrong choices must all be different."),
    ("state,Who won?,Us,Them,,,XX\n", "Row 3: \"XX\" is not a state postal code (use two letters like TX)."),
    ("state,Who won?,Us,Them,,,DC\n", "Row 3: D.C. has no State questions (nobody answers one there); make it a "
                                     "government question without a state."),
    ("general,Who won?,Us,Them,,,TX\n", "Row 3: only State questions can name a state."),
    ("general,Fine question?,Sure,Nope,,,\n", "Row 3: this question repeats row 2."),
    ("general,Q?," + "a" * 81 + ",b,,,\n", "Row 3: the answer is longer than 80 characters."),
    ("general,Q?,a," + "b" * 81 + ",,,\n", "Row 3: a wrong choice is longer than 80 characters."),
    ("general," + "q" * 301 + ",a,b,,,\n", "Row 3: the question is longer than 300 characters."),
    ("general,Q?,a,b,c,d,,extra\n",
     "Row 3: there are more fields than header columns (a comma inside a text needs quotes)."),
    ("general,Q?,!!!,b,,,\n", "Row 3: the answer must contain letters or digits."),
])
def test_each_bad_row_kind_is_rejected_with_its_row_number(line, message):
    assert _row_error(line) == message


def test_all_errors_are_listed_and_the_first_is_the_message():
    text = HEADER + "sports,A?,b,c,,,\ngeneral,B?,x,y,,,\ngeneral,C?,,y,,,\n"
    with pytest.raises(UploadError) as exc:
        parse_upload("a.csv", text.encode())
    assert str(exc.value) == "Row 2: the category must be state, general or government."
    assert exc.value.errors == ["Row 2: the category must be state, general or government.",
                                "Row 4: the answer is missing."]


def test_json_row_errors_count_list_items_from_one():
    data = [{"category": "general", "question": "A?", "answer": "b", "wrong": ["c"]},
            {"category": "general", "question": "B?", "answer": "b", "wrong": []}]
    with pytest.raises(UploadError, match=r"^Row 2: give at least one wrong choice\.$"):
        parse_upload("a.json", json.dumps(data).encode())
    with pytest.raises(UploadError, match=r"^Row 1: each entry must be an object"):
        parse_upload("a.json", b'["just text"]')
    with pytest.raises(UploadError, match=r"^Row 1: every field must be text\.$"):
        parse_upload("a.json", json.dumps([{"category": "general", "question": ["A?"], "answer": "b",
                                            "wrong": ["c"]}]).encode())
    with pytest.raises(UploadError, match=r"^Row 1: give at most three wrong choices\.$"):
        parse_upload("a.json", json.dumps([{"category": "general", "question": "A?", "answer": "b",
                                            "wrong": ["c", "d", "e", "f"]}]).encode())


def test_file_level_errors():
    with pytest.raises(UploadError, match="larger than 256 KB"):
        parse_upload("a.csv", b"x" * (MAX_UPLOAD_BYTES + 1))
    with pytest.raises(UploadError, match="not UTF-8"):
        parse_upload("a.csv", "category,question\nstate,Caf\xe9?".encode("latin-1"))
    with pytest.raises(UploadError, match="^Row 1 must be the header"):
        parse_upload("a.csv", b"general,Q?,a,b,,,\n")
    with pytest.raises(UploadError, match="no questions"):
        parse_upload("a.csv", HEADER.encode())
    with pytest.raises(UploadError, match="empty"):
        parse_upload("a.csv", b"")
    with pytest.raises(UploadError, match="JSON is not valid"):
        parse_upload("a.json", b"[{")
    with pytest.raises(UploadError, match="must be a list"):
        parse_upload("a.json", b'{"category": "general"}')
    many = HEADER + "".join(f"general,Question number {i}?,a,b,,,\n" for i in range(MAX_ROWS + 1))
    with pytest.raises(UploadError, match=f"the limit is {MAX_ROWS}"):
        parse_upload("a.csv", many.encode())
    assert len(parse_upload("a.csv", (HEADER + "".join(f"general,Question number {i}?,a,b,,,\n"
                                                          for i in range(MAX_ROWS))).encode())) == MAX_ROWS


def test_every_message_is_one_sentence():
    lines = ["sports,Who won?,Us,Them,,,\n", "general,Who won?,Us,,,,\n", "state,Who won?,Us,Them,,,XX\n"]
    for line in lines:
        msg = _row_error(line)
        assert msg.endswith(".") and msg.count(". ") == 0 and "\n" not in msg


def test_from_custom_round_trip():
    rows = parse_upload("mine.csv", GOOD_CSV.encode())
    qs = from_custom(rows)
    assert [q.category for q in qs] == ["state", "general", "government", "government"]
    assert qs[0].state == "TX" and qs[0].wrong == ("Dallas", "Houston", "San Antonio")
    assert all(q.id.startswith("custom-") for q in qs)
    assert len({q.id for q in qs}) == 4
    assert from_custom(rows)[0].id == qs[0].id                      # stable
    assert qs[3].free_text is False                                  # "Which of these ... NOT"
    assert qs[0].free_text is True
    assert matches("austin", qs[0]) and not matches("Dallas", qs[0])
    # the engine's stored id wins when present
    stored = [dict(rows[0], id="custom-7")]
    assert from_custom(stored)[0].id == "custom-7"
    # rows that no longer validate are skipped, never fatal
    assert from_custom([{"category": "sports", "text": "x", "answer": "y", "wrong": ["z"]}, {"nonsense": 1}]) == []
