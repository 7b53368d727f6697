"""Race for the White House: the states, regions, tally sheets, board and decks.

Electoral votes are the 2000-census figures (ev_2004 of the shared data file;
tests check every value and the 538 total). Everything else here is this
project's design, explained in docs/games/race-white-house.md: the voting
blocks of each state, the lean (pre-marked block) of each state, the board
circuit and the four campaign side tracks, and the Issues and Spin Doctor decks.
"""
from __future__ import annotations

CATEGORIES: tuple[str, ...] = ("UNION", "LIBERAL", "CONSERVATIVE", "MINORITY", "FARM")
CAT_INDEX = {c: i for i, c in enumerate(CATEGORIES)}
SHORT = {"UNION": "UN", "LIBERAL": "LIB", "CONSERVATIVE": "CON", "MINORITY": "MIN", "FARM": "FARM"}
U, L, C, M, F = range(5)

FUNDS = 60_000_000
TO_ELECT = 270

# (code, name, electoral votes (2000 census), region, lean, weights U L C M F)
# lean: "D" = a pre-marked Democratic LIBERAL block, "R" = a pre-marked
# Republican CONSERVATIVE block, "" = a swing state.
STATES: tuple[tuple[str, str, int, str, str, tuple[int, int, int, int, int]], ...] = (
    # Northeast (9 states, 101 votes)
    ("CT", "Connecticut", 7, "Northeast", "D", (2, 3, 2, 2, 1)),
    ("ME", "Maine", 4, "Northeast", "D", (2, 2, 2, 1, 2)),
    ("MA", "Massachusetts", 12, "Northeast", "D", (3, 4, 1, 2, 1)),
    ("NH", "New Hampshire", 4, "Northeast", "", (1, 2, 3, 1, 1)),
    ("NJ", "New Jersey", 15, "Northeast", "D", (3, 3, 2, 3, 1)),
    ("NY", "New York", 31, "Northeast", "D", (3, 4, 2, 4, 1)),
    ("PA", "Pennsylvania", 21, "Northeast", "D", (4, 2, 3, 2, 2)),
    ("RI", "Rhode Island", 4, "Northeast", "D", (3, 3, 1, 2, 0)),
    ("VT", "Vermont", 3, "Northeast", "D", (1, 3, 1, 0, 3)),
    # South (16 states and D.C., 189 votes)
    ("AL", "Alabama", 9, "South", "R", (2, 1, 4, 3, 2)),
    ("AR", "Arkansas", 6, "South", "R", (1, 1, 4, 2, 3)),
    ("DE", "Delaware", 3, "South", "D", (2, 2, 2, 2, 1)),
    ("DC", "District of Columbia", 3, "South", "D", (1, 4, 0, 5, 0)),
    ("FL", "Florida", 27, "South", "", (1, 2, 3, 4, 2)),
    ("GA", "Georgia", 15, "South", "R", (1, 1, 4, 3, 2)),
    ("KY", "Kentucky", 8, "South", "R", (3, 1, 4, 1, 3)),
    ("LA", "Louisiana", 9, "South", "R", (2, 1, 3, 3, 2)),
    ("MD", "Maryland", 10, "South", "D", (2, 3, 2, 3, 1)),
    ("MS", "Mississippi", 6, "South", "R", (1, 1, 4, 4, 2)),
    ("NC", "North Carolina", 15, "South", "R", (1, 2, 4, 3, 2)),
    ("OK", "Oklahoma", 7, "South", "R", (1, 1, 5, 1, 3)),
    ("SC", "South Carolina", 8, "South", "R", (1, 1, 4, 3, 2)),
    ("TN", "Tennessee", 11, "South", "R", (2, 1, 4, 2, 2)),
    ("TX", "Texas", 34, "South", "R", (2, 1, 4, 4, 3)),
    ("VA", "Virginia", 13, "South", "R", (1, 2, 4, 3, 1)),
    ("WV", "West Virginia", 5, "South", "", (5, 1, 3, 1, 1)),
    # Midwest (12 states, 124 votes)
    ("IL", "Illinois", 21, "Midwest", "D", (4, 3, 2, 3, 2)),
    ("IN", "Indiana", 11, "Midwest", "R", (4, 1, 4, 1, 2)),
    ("IA", "Iowa", 7, "Midwest", "", (1, 2, 2, 0, 5)),
    ("KS", "Kansas", 6, "Midwest", "R", (1, 1, 4, 1, 4)),
    ("MI", "Michigan", 17, "Midwest", "", (5, 2, 2, 3, 1)),
    ("MN", "Minnesota", 10, "Midwest", "D", (3, 3, 2, 1, 3)),
    ("MO", "Missouri", 11, "Midwest", "", (3, 1, 4, 2, 2)),
    ("NE", "Nebraska", 5, "Midwest", "R", (1, 1, 4, 1, 5)),
    ("ND", "North Dakota", 3, "Midwest", "R", (1, 1, 3, 0, 5)),
    ("OH", "Ohio", 20, "Midwest", "", (4, 2, 3, 2, 2)),
    ("SD", "South Dakota", 3, "Midwest", "R", (1, 1, 3, 1, 5)),
    ("WI", "Wisconsin", 10, "Midwest", "", (3, 3, 2, 1, 3)),
    # West (13 states, 124 votes)
    ("AK", "Alaska", 3, "West", "R", (2, 1, 4, 2, 1)),
    ("AZ", "Arizona", 10, "West", "R", (1, 1, 4, 4, 1)),
    ("CA", "California", 55, "West", "D", (3, 5, 2, 5, 2)),
    ("CO", "Colorado", 9, "West", "R", (1, 3, 3, 2, 2)),
    ("HI", "Hawaii", 4, "West", "D", (4, 3, 1, 4, 1)),
    ("ID", "Idaho", 4, "West", "R", (1, 1, 5, 1, 3)),
    ("MT", "Montana", 3, "West", "R", (2, 1, 3, 1, 3)),
    ("NM", "New Mexico", 5, "West", "", (1, 2, 2, 5, 1)),
    ("NV", "Nevada", 5, "West", "", (4, 1, 2, 3, 1)),
    ("OR", "Oregon", 7, "West", "", (2, 4, 2, 1, 2)),
    ("UT", "Utah", 5, "West", "R", (1, 1, 6, 1, 1)),
    ("WA", "Washington", 11, "West", "D", (3, 4, 2, 1, 2)),
    ("WY", "Wyoming", 3, "West", "R", (1, 1, 5, 1, 2)),
)

CODES: tuple[str, ...] = tuple(s[0] for s in STATES)
NAMES: dict[str, str] = {s[0]: s[1] for s in STATES}
EV: dict[str, int] = {s[0]: s[2] for s in STATES}
REGION: dict[str, str] = {s[0]: s[3] for s in STATES}
LEAN: dict[str, str] = {s[0]: s[4] for s in STATES}
WEIGHTS: dict[str, tuple[int, ...]] = {s[0]: s[5] for s in STATES}
TOTAL_EV = sum(EV.values())

# The four regions (the Census Bureau's) and the two tally sheets. In the
# four-player game the Presidential candidates keep sheet 0 and the
# Vice-Presidential candidates sheet 1.
REGIONS: dict[str, tuple[str, ...]] = {
    r: tuple(c for c in CODES if REGION[c] == r) for r in ("Northeast", "South", "Midwest", "West")
}
SHEETS: tuple[tuple[str, str], ...] = (("Northeast", "South"), ("Midwest", "West"))
SHEET_OF: dict[str, int] = {c: (0 if REGION[c] in SHEETS[0] else 1) for c in CODES}
SHEET_CODES: tuple[tuple[str, ...], ...] = tuple(
    tuple(c for r in regions for c in REGIONS[r]) for regions in SHEETS)
# sheet_codes(None) = all states in sheet order
ALL_CODES: tuple[str, ...] = SHEET_CODES[0] + SHEET_CODES[1]


def blocks_total(ev: int) -> int:
    """Voting blocks per party in a state of `ev` electoral votes (the short
    evening's scale: about one block per two electoral votes)."""
    return max(5, 2 + (ev + 1) // 2)


def blocks_rulebook(ev: int) -> int:
    """Voting blocks per party on the rulebook's scale: its tally-sheet example
    has North Carolina (15 electoral votes) won with 13 blocks, a majority of
    25, so every state gets 5 blocks per 3 electoral votes (at least 5)."""
    return max(5, -(-5 * ev // 3))


def _apportion(total: int, weights: tuple[int, ...], floor: dict[int, int]) -> tuple[int, ...]:
    """Split `total` blocks over the categories in proportion to `weights`
    (largest remainders, ties to the earlier category), with minimums."""
    wsum = sum(weights)
    quotas = [total * w / wsum for w in weights]
    out = [int(q) for q in quotas]
    order = sorted(range(len(weights)), key=lambda i: (-(quotas[i] - out[i]), i))
    k = 0
    while sum(out) < total:
        out[order[k % len(order)]] += 1
        k += 1
    for i, lo in floor.items():
        while out[i] < lo:
            # take from the largest other category
            j = max((j for j in range(len(out)) if j != i and out[j] > floor.get(j, 0)), key=lambda j: (out[j], -j))
            out[j] -= 1
            out[i] += 1
    return tuple(out)


def _sheet(total_for) -> tuple[dict[str, tuple[int, int, int, int, int]], dict[str, int]]:
    """Voting blocks per category for EACH party in every state (the two
    columns of a tally sheet mirror each other), and the blocks to win (a
    majority), for a scale given as blocks per state by electoral votes."""
    caps: dict[str, tuple[int, int, int, int, int]] = {}
    for code in CODES:
        w = WEIGHTS[code]
        floor = {k: 1 for k, x in enumerate(w) if x > 0}  # a block in every category the state has at all
        lean = (L if LEAN[code] == "D" else C) if LEAN[code] else None
        if lean is not None:
            floor[lean] = 2  # the pre-marked block and one more
        for k in sorted(floor, key=lambda k: (w[k], -k)):  # too few blocks: drop the weakest categories' floors
            if sum(floor.values()) <= total_for(EV[code]):
                break
            if k != lean:
                del floor[k]
        caps[code] = _apportion(total_for(EV[code]), w, floor)  # type: ignore[assignment]
    return caps, {c: sum(caps[c]) // 2 + 1 for c in CODES}


# The two scales of the tally sheets (setting `blocks`): "short" (default) keeps a
# game to an evening, "rulebook" is the printed sheets' scale.
SCALES: dict[str, tuple[dict[str, tuple[int, int, int, int, int]], dict[str, int]]] = {
    "short": _sheet(blocks_total), "rulebook": _sheet(blocks_rulebook)}
# The short scale by name, for the tables and tests that describe the default.
CAPS, TO_WIN = SCALES["short"]
BLOCKS: dict[str, int] = {c: sum(CAPS[c]) for c in CODES}

# The big seven of the strategy tips (and the AI's "feed the big states").
BIG_SEVEN = ("CA", "TX", "NY", "FL", "PA", "IL", "OH")
LATINO_STATES = ("CA", "AZ", "NM", "IL", "NY", "TX", "FL")

# ---------------------------------------------------------------- effects
# An effect is a small tuple:
#   ("place", n, cat | None, where)   n votes to place, in one category or any; where = None (anywhere on
#                                     the player's sheet), a region name, "home", or a tuple of state codes
#   ("upto", n, cat | None, where)    the same, but the player may stop early ("up to")
#   ("each", n, cat, where)           n votes of cat in EVERY state of where (automatic)
#   ("add", n, cat)                   ADD: n votes of cat in every state where the player leads in cat
#   ("opp", n)                        the opponent places n votes anywhere (on their sheet)
#   ("pay", dollars)                  pay; a player who cannot pay in full gives the opponent 5 votes
#   ("move", target)                  advance the pawn to the next space of that kind and resolve it

# ---------------------------------------------------------------- the board
# The circuit, clockwise from Start. kind, label, effect/parameter.
CIRCUIT: tuple[tuple[str, str, object], ...] = (
    ("home", "HOME STATE / START", None),
    ("issues", "ISSUES", None),
    ("rally", "RALLY: NORTHEAST", "Northeast"),
    ("spin", "SPIN DOCTOR", None),
    ("campaign", "CAMPAIGN for UNIONS", "UNION"),
    ("issues", "ISSUES", None),
    ("tv", "TV", None),
    ("latino", "LATINO VOTE", None),
    ("debate", "DEBATE", None),
    ("issues", "ISSUES", None),
    ("farm", "FARM", None),
    ("spin", "SPIN DOCTOR", None),
    ("rally", "RALLY: SOUTH", "South"),
    ("campaign", "CAMPAIGN for CONSERVATIVES", "CONSERVATIVE"),
    ("issues", "ISSUES", None),
    ("values", "VALUES VOTERS", None),
    ("bus", "CAMPAIGN BUS", None),
    ("spin", "SPIN DOCTOR", None),
    ("rally", "RALLY: MIDWEST", "Midwest"),
    ("campaign", "CAMPAIGN for MINORITIES", "MINORITY"),
    ("issues", "ISSUES", None),
    ("california", "CALIFORNIA", None),
    ("tv", "TV", None),
    ("debate", "DEBATE", None),
    ("spin", "SPIN DOCTOR", None),
    ("rally", "RALLY: WEST", "West"),
    ("campaign", "CAMPAIGN for LIBERALS", "LIBERAL"),
    ("issues", "ISSUES", None),
    ("convention", "NATIONAL CONVENTION", None),
    ("spin", "SPIN DOCTOR", None),
)
TRACKS: tuple[str, ...] = ("UNION", "CONSERVATIVE", "MINORITY", "LIBERAL")  # board order
ENTRIES: dict[str, int] = {p: i for i, (k, _l, p) in enumerate(CIRCUIT) if k == "campaign"}  # type: ignore[misc]
ENTRY_COST: dict[str, int] = {"UNION": 0, "MINORITY": 0, "CONSERVATIVE": 10_000_000, "LIBERAL": 10_000_000}
RALLY_VOTES = 1  # in every state of the region, in one category of the player's choice
TV_MAX = 30  # votes per visit to a TV space
HOME_VOTES = 2
FARM_VOTES = 15
CALIFORNIA_VOTES = 5
LATINO_VOTES = 2
CONVENTION_VOTES = 6
TV_PRICE = 5_000_000  # per lot of TV_LOT votes
TV_LOT = 5
PENALTY_VOTES = 5

_MW = ("PA", "OH", "MI", "IL", "IN", "WV")
# Side tracks: six small spaces each, entered with one die; (label, effect).
TRACK_SPACES: dict[str, tuple[tuple[str, tuple], ...]] = {
    "UNION": (
        ("Union hall rally: 3 UNION in the Midwest", ("place", 3, U, "Midwest")),
        ("Labor Day parade: 1 UNION in every Northeast state", ("each", 1, U, "Northeast")),
        ("AFL-CIO endorsement: ADD 1 UNION", ("add", 1, U)),
        ("Plant gates at dawn: 4 UNION anywhere", ("place", 4, U, None)),
        ("Steelworkers: 1 UNION in PA, OH, MI, IL, IN, WV", ("each", 1, U, _MW)),
        ("Union get-out-the-vote: 5 UNION anywhere", ("place", 5, U, None)),
    ),
    "CONSERVATIVE": (
        ("Talk radio tour: ADD 1 CONSERVATIVE", ("add", 1, C)),
        ("Gun owners: 1 CONSERVATIVE in every West state", ("each", 1, C, "West")),
        ("Church suppers: 4 CONSERVATIVE in the South", ("place", 4, C, "South")),
        ("Chamber of Commerce: 5 CONSERVATIVE anywhere", ("place", 5, C, None)),
        ("Tax revolt: 1 CONSERVATIVE in every Midwest state", ("each", 1, C, "Midwest")),
        ("Conservative get-out-the-vote: 6 CONSERVATIVE anywhere", ("place", 6, C, None)),
    ),
    "MINORITY": (
        ("Black churches: 1 MINORITY in every South state", ("each", 1, M, "South")),
        ("Spanish-language radio: 3 MINORITY in the West", ("place", 3, M, "West")),
        ("Civil rights leaders: ADD 1 MINORITY", ("add", 1, M)),
        ("City neighborhoods: 1 MINORITY in NY, IL, PA, MI, OH, NJ, CA, GA",
         ("each", 1, M, ("NY", "IL", "PA", "MI", "OH", "NJ", "CA", "GA"))),
        ("Registration drive: 4 MINORITY anywhere", ("place", 4, M, None)),
        ("Minority get-out-the-vote: 5 MINORITY anywhere", ("place", 5, M, None)),
    ),
    "LIBERAL": (
        ("College campuses: 1 LIBERAL in every Northeast state", ("each", 1, L, "Northeast")),
        ("Hollywood and Seattle: 3 LIBERAL in the West", ("place", 3, L, "West")),
        ("Environmental groups: ADD 1 LIBERAL", ("add", 1, L)),
        ("Teachers' unions: 5 LIBERAL anywhere", ("place", 5, L, None)),
        ("Big-city mayors: 1 LIBERAL in NY, IL, CA, PA, MI, MA, WA, MN",
         ("each", 1, L, ("NY", "IL", "CA", "PA", "MI", "MA", "WA", "MN"))),
        ("Liberal get-out-the-vote: 6 LIBERAL anywhere", ("place", 6, L, None)),
    ),
}
TRACK_LEN = 6

# ---------------------------------------------------------------- Issues cards
# slug, title, (position A, position B); a position is (slug, label, ADDs, opponent's votes)
ISSUES: tuple[tuple[str, str, tuple[tuple[str, str, tuple[tuple[int, int], ...], int], ...]], ...] = (
    ("abortion", "Abortion",
     (("pro-choice", "Protect the right to choose", ((L, 1),), 2),
      ("pro-life", "Protect the unborn", ((C, 1),), 5))),
    ("minimum-wage", "The minimum wage",
     (("raise-it", "Raise the minimum wage", ((U, 1), (M, 1)), 5),
      ("hold-it", "Let the market set wages", ((C, 1),), 5))),
    ("farm-subsidies", "Farm subsidies",
     (("keep-subsidies", "Keep the farm safety net", ((F, 2),), 3),
      ("cut-subsidies", "End corporate farm welfare", ((C, 1),), 6))),
    ("free-trade", "Free trade",
     (("expand-trade", "Open new markets abroad", ((F, 1), (C, 1)), 7),
      ("protect-jobs", "Stop shipping jobs overseas", ((U, 2),), 4))),
    ("immigration", "Immigration",
     (("citizenship", "A path to citizenship", ((M, 2),), 4),
      ("secure-border", "Secure the border first", ((C, 1),), 5))),
    ("guns", "Gun control",
     (("assault-ban", "Ban assault weapons", ((L, 1),), 2),
      ("gun-rights", "Defend the Second Amendment", ((C, 1), (F, 1)), 7))),
    ("taxes", "Taxes",
     (("tax-cuts", "Cut taxes for everyone", ((C, 1),), 5),
      ("tax-the-rich", "Make the rich pay their share", ((U, 1), (L, 1)), 4))),
    ("health-care", "Health care",
     (("universal", "Health coverage for every American", ((L, 1), (U, 1)), 4),
      ("private", "Keep health care private", ((C, 1),), 5))),
    ("social-security", "Social Security",
     (("protect-benefits", "Hands off Social Security", ((U, 1), (M, 1)), 5),
      ("private-accounts", "Personal retirement accounts", ((C, 1),), 6))),
    ("energy", "Energy",
     (("drill", "Drill at home", ((C, 1), (U, 1)), 7),
      ("green", "Clean energy jobs", ((L, 1),), 2))),
    ("affirmative-action", "Affirmative action",
     (("keep-it", "Keep affirmative action", ((M, 2),), 4),
      ("end-it", "A color-blind government", ((C, 1),), 6))),
    ("death-penalty", "The death penalty",
     (("abolish", "Abolish the death penalty", ((L, 1),), 3),
      ("keep", "Keep the death penalty", ((C, 1),), 5))),
    ("education", "Education",
     (("vouchers", "School vouchers", ((C, 1),), 5),
      ("public-schools", "Invest in public schools", ((U, 1), (L, 1)), 4))),
    ("defense", "Defense",
     (("build-up", "A stronger military", ((C, 1),), 5),
      ("peace-dividend", "Cut the Pentagon's budget", ((L, 1),), 2))),
    ("ethanol", "Ethanol",
     (("mandate", "An ethanol mandate", ((F, 2),), 3),
      ("free-market", "No fuel mandates", ((C, 1),), 6))),
    ("welfare", "Welfare",
     (("work-first", "Welfare to work", ((C, 1),), 5),
      ("safety-net", "Protect the safety net", ((M, 1), (L, 1)), 4))),
    ("labor-law", "Labor law",
     (("card-check", "Make it easier to organize", ((U, 2),), 4),
      ("right-to-work", "Right to work", ((C, 1),), 6))),
    ("environment", "The environment",
     (("clean-air", "Tougher clean-air rules", ((L, 1),), 2),
      ("red-tape", "Cut the red tape", ((C, 1), (F, 1)), 7))),
    ("marriage", "Same-sex marriage",
     (("equality", "Marriage equality", ((L, 1),), 3),
      ("traditional", "Traditional marriage", ((C, 1),), 6))),
    ("china-trade", "Trade with China",
     (("tariffs", "Tariffs on Chinese goods", ((U, 2),), 4),
      ("open-markets", "Sell to China's markets", ((F, 1), (C, 1)), 7))),
    ("voting-rights", "Voting rights",
     (("voting-rights-act", "Enforce the Voting Rights Act", ((M, 2),), 4),
      ("voter-id", "Photo ID at the polls", ((C, 1),), 6))),
    ("iraq", "The war in Iraq",
     (("bring-them-home", "Bring the troops home", ((L, 1), (M, 1)), 4),
      ("stay-the-course", "Stay the course", ((C, 1),), 5))),
    ("crime", "Crime",
     (("tough-on-crime", "Tough on crime", ((C, 1), (U, 1)), 7),
      ("prevention", "Prevention and second chances", ((L, 1), (M, 1)), 4))),
    ("stem-cells", "Stem-cell research",
     (("fund-research", "Fund the research", ((L, 1),), 2),
      ("ban-research", "Protect embryos", ((C, 1),), 5))),
)
ISSUE_BY_SLUG = {i[0]: i for i in ISSUES}
POSITION_BY_SLUG = {p[0]: (i[0], p) for i in ISSUES for p in i[2]}

# ---------------------------------------------------------------- Spin Doctor cards
# slug, title, text, effects
SPINS: tuple[tuple[str, str, str, tuple[tuple, ...]], ...] = (
    ("teamsters", "Teamsters endorse you", "Place 4 UNION votes anywhere.", (("place", 4, U, None),)),
    ("running-mate-gaffe", "Your running mate's gaffe", "Your opponent places 4 votes anywhere.", (("opp", 4),)),
    ("ad-backfires", "Their attack ad backfires", "Place 5 votes anywhere.", (("place", 5, None, None),)),
    ("legal-fees", "Campaign finance probe", "Pay $5,000,000 in legal fees.", (("pay", 5_000_000),)),
    ("go-home", "Homecoming rally", "Advance to HOME STATE and take its votes.", (("move", "home"),)),
    ("to-debate", "Debate challenge", "Advance to the next DEBATE space.", (("move", "debate"),)),
    ("rust-belt", "Rust Belt bus tour", "1 UNION vote in PA, OH, MI, IL, IN and WV.", (("each", 1, U, _MW),)),
    ("sunshine", "Sunshine State swing", "Place 3 votes in Florida.", (("place", 3, None, ("FL",)),)),
    ("lone-star", "Lone Star barbecue", "Place 3 votes in Texas.", (("place", 3, None, ("TX",)),)),
    ("empire-state", "Empire State fundraiser", "Place 3 votes in New York.", (("place", 3, None, ("NY",)),)),
    ("farm-aid", "Farm Aid concert", "1 FARM vote in every Midwest state.", (("each", 1, F, "Midwest"),)),
    ("comedy-roast", "Late-night comedians roast you", "Your opponent places 3 votes anywhere.", (("opp", 3),)),
    ("viral-ad", "A viral ad", "Pay $5,000,000, then place 8 votes anywhere.",
     (("pay", 5_000_000), ("place", 8, None, None))),
    ("gotv", "Get out the vote", "Place 6 votes anywhere.", (("place", 6, None, None),)),
    ("october-surprise", "October surprise", "Your opponent places 6 votes anywhere.", (("opp", 6),)),
    ("celebrities", "Celebrity endorsements", "Place 3 LIBERAL votes in California or New York.",
     (("place", 3, L, ("CA", "NY")),)),
    ("evangelicals", "Evangelical leaders back you", "ADD 1 CONSERVATIVE.", (("add", 1, C),)),
    ("civil-rights-march", "A march for civil rights", "ADD 1 MINORITY.", (("add", 1, M),)),
    ("consultants", "Consultants send their bill", "Pay $10,000,000.", (("pay", 10_000_000),)),
    ("hometown-paper", "Your hometown paper endorses you", "Place 3 votes in your Home State.",
     (("place", 3, None, "home"),)),
    ("to-tv", "Prime-time interview", "Advance to the next TV space.", (("move", "tv"),)),
    ("union-split", "Union locals split", "ADD 1 UNION.", (("add", 1, U),)),
    ("hollywood-gala", "A Hollywood gala for you", "ADD 1 LIBERAL.", (("add", 1, L),)),
)
SPIN_BY_SLUG = {s[0]: s for s in SPINS}
