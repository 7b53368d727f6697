"""The 2-player transcript replays through the bot exactly as a Discord session would."""
from __future__ import annotations

import pathlib

from bot.transcript import channel_as_shown, run_transcript

HERE = pathlib.Path(__file__).resolve().parent / "transcripts"


async def test_two_player_transcript_plays_a_whole_game():
    out = await run_transcript(str(HERE / "primary-general-2p.txt"), render=False)
    final = out[-1]["final"]
    channel = [m["text"] for m in channel_as_shown(out[:-1])]  # a board edited in place counts once
    private = [m["text"] for m in out[:-1] if m["to"] != "channel"]
    # Every one of alice's moves was accepted: no refusal came back to her.
    refusals = [t for t in private if "not your turn" in t.lower() or "you have no" in t.lower()
                or "there is no" in t.lower() or "must remove" in t.lower()]
    assert refusals == []
    assert final["game"] == "primary-general" and final["finished"]
    assert sum(t.count("alice plays") for t in channel) == 14
    assert any("The Primary is over" in t and "Candidates: alice and" in t for t in channel)
    assert any("The General begins" in t for t in channel)
    # The AI's General total is the only positive one, so it is President. (Its draws come from
    # the game's secret stream since issue #20; the no-positive-Candidate ending this transcript
    # reached before is held by test_primary_general_rules.)
    assert final["scores"] == [-3.0, 4.0]
    assert final["winners"] == [final["state"]["players"][1]["name"]] == ["AI-Lincoln"]
    assert any("AI-Lincoln is President." in t for t in channel)
    # Alice's hand reached her privately, never the channel.
    assert any("Your hand" in t for t in private)
    assert not any("Your hand" in t for t in channel)


async def test_party_match_transcript_scores_two_games():
    out = await run_transcript(str(HERE / "primary-general-party.txt"), render=False)
    final = out[-1]["final"]
    channel = "\n".join(m["text"] for m in channel_as_shown(out[:-1]))
    private = [m["text"] for m in out[:-1] if m["to"] != "channel"]
    assert not [t for t in private if "not your turn" in t.lower() or "you have no" in t.lower()
                or "there is no" in t.lower()]
    assert "party_match=on match_games=2" in channel
    assert channel.count("alice plays") == 28  # 7 cards x 2 phases x 2 games
    assert ("Standings after game 1 of 2: alice (Blue) 2, AI-Lincoln (Red) 1, AI-Roosevelt (Blue) 2, "
            "AI-Truman (Red) 0.") in channel
    assert ("Standings after game 2 of 2: alice (Blue) 4, AI-Lincoln (Red) 2, AI-Roosevelt (Blue) 4, "
            "AI-Truman (Red) 0.") in channel
    # Both games were won by a Spoiler because no Candidate ended positive.
    assert channel.count("the Spoiler with the highest Electability") == 2
    assert final["finished"] and final["winners"] == ["alice", "AI-Roosevelt"]
    assert final["scores"] == [4.0, 2.0, 4.0, 0.0]
