"""The steps of the engine-written logs of the log referee's tests (issues 14, 24), and what each must give.

Each log is made by VASSAL 3.7.26 from the first set-up of our module of the game, one logged Step per
step (``tools.vassal_oracle.logs.write_log``): a log of moves only through the shared harness
(``log-moves``); a log beyond one phase, whose Turn Tracker's "+" button is pressed (``NEXT_TURN``) or
whose chits are drawn out of their cup (``draw``), through our oracle's ``log-steps``. ``EXPECT`` names, per log, the findings
(step, kind, rule, unit) the referee must report; a log with no entry must have no movement findings.
The stored copies in ``tests/fixtures/logs/`` are the same logs, for runs without Java.
"""

from __future__ import annotations

from typing import Any

RG_LEGAL: list[dict[str, Any]] = [
    {"piece": "axis-ariete-5-ber", "to": "1521"},            # 1: two steps of one move, 1422-1521-1620, each
    {"piece": "axis-ariete-5-ber", "to": "1620"},            # 2: legal only by a detour (9.0, 10.0: warned)
    {"piece": "allied-22arm-3-cly", "to": "1310"},           # 3: stacks with 22arm-2-rgh (2 = the limit)
    {"piece": "22 Arm (Allied action)", "map": "Chit Cups", "x": 600, "y": 400},   # 4: a new action phase
    {"piece": "allied-22arm-4-cly", "to": "1111"},           # 5: a unit of the activated formation (7.0)
]

RG_ILLEGAL: list[dict[str, Any]] = [
    {"piece": "allied-201gd-2-sg", "to": "2304"},            # 1: legal (5 of 6 points)
    {"piece": "22 Arm (Allied action)", "map": "Chit Cups", "x": 600, "y": 400},   # 2: phase 2 starts
    {"piece": "allied-201gd-2-sg", "to": "2303"},            # 3: 8.0 escarpment off a road (detour: 7 > 6)
    {"piece": "axis-ariete-5-ber", "to": "1319"},            # 4: 9.0 ZOC to ZOC
    {"piece": "axis-trieste-65-1", "to": "0815"},            # 5: 14.0 un-breached minefield hexside
    {"piece": "allied-150inf-5-gh", "to": "0308"},           # 6: 8.1 into the Prohibited Zone
    {"piece": "axis-pavia-27", "map": "Main Map", "x": 2100, "y": 300},   # 7: 8.3 exits far from the south edge
    {"piece": "allied-22arm-4-cly", "to": "1210"},           # 8: legal
    {"piece": "allied-22arm-2-rgh", "to": "1210"},           # 9: legal move, 3 in 1210 at the phase end: 10.0
    {"piece": "150 Inf (Allied action)", "map": "Chit Cups", "x": 700, "y": 400},  # 10: 7.0 not on May 27 AM
]

BG_LEGAL: list[dict[str, Any]] = [
    {"piece": "allied-1fl", "to": "L12"},
    {"piece": "allied-7arm-7mot", "to": "L12"},
    {"piece": "allied-1arm-22", "to": "L12"},                # 3 in L12: the limit (4.1.1)
    {"piece": "allied-1atb", "to": "L11"},
    {"piece": "allied-50-150", "to": "C09"},                 # 7 of 8 points; stops in 9B's engagement zone
]

BG_ILLEGAL: list[dict[str, Any]] = [
    {"piece": "allied-50-150", "to": "C09"},                 # 1: legal, enters 9B's engagement zone
    {"piece": "allied-50-150", "to": "D09"},                 # 2: 4.1.2 moves on after entering it
    {"piece": "allied-201g", "to": "O03"},                   # 3: 4.0 sea is prohibited
    {"piece": "allied-1atb", "to": "J04"},                   # 4: legal, all its 10 points (9.1: no minefield point for Allies)
    {"piece": "allied-1arm-22", "to": "T03"},                # 5: 4.0 armor into a sea inlet
    {"piece": "allied-1fl", "to": "L12"},                    # 6-8: legal moves, then
    {"piece": "allied-7arm-7mot", "to": "L12"},
    {"piece": "allied-1atb", "to": "L12"},                   # 8: 4.0 again (its points are spent)
]

BG_STACKING: list[dict[str, Any]] = [*BG_LEGAL[:4], {"piece": "allied-1atb", "to": "L12"}]   # 4 in L12: 4.1.1

RG_DETOURS: list[dict[str, Any]] = [
    {"piece": "allied-3ind-18-cav", "to": "1521"},           # 1: 9.0 detour 1421-1520-1521 (ZOC to ZOC direct)
    {"piece": "allied-1atb-8-rtr", "to": "0807"},            # 2: 8.0 detour round the escarpment
]

DG_DETOUR: list[dict[str, Any]] = [
    {"piece": "axis-cr-15-sch-2", "to": "0233"},             # 1: 16.0 detour 0132-0232-0233 (escarpment direct)
]

RG_ACTIVATIONS: list[dict[str, Any]] = [
    {"piece": "Extra Move (Allied tactical)", "map": "Chit Cups", "x": 500, "y": 400},   # 1: 13.2 Extra Move drawn
    {"piece": "22 Arm (Allied action)", "map": "Chit Cups", "x": 600, "y": 400},   # 2: the 22 Arm action
    {"piece": "allied-22arm-4-cly", "to": "1111"},           # 3: legal: of 22 Arm
    {"piece": "allied-1atb-8-rtr", "to": "0906"},            # 4: legal: activated by the Extra Move (13.2), a detour
    {"piece": "allied-3ind-11-cav", "to": "1419"},           # 5: 7.0: not activated (the chit's own units moved)
    {"piece": "allied-9ind-3-12-fr", "to": "2704"},          # 6: 7.0: 9 Ind may not be activated on May 27 AM
]

DG_FEINT: list[dict[str, Any]] = [
    {"piece": "axis-15pz-8-1", "to": "2720"},                # 1: legal: beside allied-7mot (2620)
    {"piece": "allied-7mot", "to": "2520"},                  # 2: legal: adjacent to an Axis unit when it moves
    {"piece": "allied-1sa-1", "to": "0227"},                 # 3: 17.0 Rommel's feint: not adjacent
    {"piece": "allied-1sa-2", "map": "Main Map", "x": 3000, "y": 300},   # 4: 17.0 again: off the map
]

SPI_LEGAL: list[dict[str, Any]] = [
    {"piece": "allied-50-151", "to": "0927"},                # 1: within 3 hexes of axis-brescia-20 (1031)
]

SPI_COMMAND: list[dict[str, Any]] = [
    {"piece": "allied-50-151", "to": "0927"},                # 1: legal (17.0: within 3 hexes of an Axis unit)
    {"piece": "allied-1sa-1", "to": "0227"},                 # 2: 17.0: 4 hexes from the nearest Axis unit
]

#: the Turn Tracker's "+" button pressed: VASSAL logs the turn report and the new ``TURN`` state as one Step
NEXT_TURN: dict[str, Any] = {"turn": "next"}


def draw(chit: str, cup: str, x: int, y: int) -> dict[str, Any]:
    """The chit named ``chit`` dragged out of the deck ``cup`` onto the chit map at (x, y), as a player
    draws it ("Draw specific card")."""
    return {"draw": cup, "piece": chit, "map": "Chit Cups", "x": x, "y": y}


RG_TWO_TURNS: list[dict[str, Any]] = [
    RG_ILLEGAL[0],
    draw("22 Arm (Allied action)", "Allied action chits", 600, 400),   # 2: phase 2 starts
    *RG_ILLEGAL[2:9],                                        # 3-9: as in rg-illegal
    NEXT_TURN,                                               # 10: May 27 PM
    NEXT_TURN,                                               # 11: May 28
    draw("150 Inf (Allied action)", "Allied action chits", 700, 400),  # 12: 150 Inf may act on May 28 (7.0)
]

DG_FEINT_TURN_2: list[dict[str, Any]] = [*DG_FEINT[:2], NEXT_TURN, *DG_FEINT[2:]]   # 4, 5: legal on turn 2

BG_TWO_TURNS: list[dict[str, Any]] = [*BG_ILLEGAL[:7], NEXT_TURN, *BG_ILLEGAL[7:]]  # 9: 1 ATB has 10 again

LOGS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "dg-feint": ("cauldron-dg", DG_FEINT),
    "spi-legal": ("cauldron-spi", SPI_LEGAL),
    "spi-command": ("cauldron-spi", SPI_COMMAND),
    "rg-detours": ("gazala-rg", RG_DETOURS),
    "rg-activations": ("gazala-rg", RG_ACTIVATIONS),
    "dg-detour": ("cauldron-dg", DG_DETOUR),
    "rg-legal": ("gazala-rg", RG_LEGAL),
    "rg-illegal": ("gazala-rg", RG_ILLEGAL),
    "bg-legal": ("batalha", BG_LEGAL),
    "bg-illegal": ("batalha", BG_ILLEGAL),
    "bg-stacking": ("batalha", BG_STACKING),
    "rg-two-turns": ("gazala-rg", RG_TWO_TURNS),
    "dg-feint-turn-2": ("cauldron-dg", DG_FEINT_TURN_2),
    "bg-two-turns": ("batalha", BG_TWO_TURNS),
}

#: log -> (step, kind, rule, unit or "") the report must contain
EXPECT: dict[str, set[tuple[int, str, str, str]]] = {
    "rg-activations": {(4, "move", "8.0", "allied-1atb-8-rtr"),   # a detour (warning) round the escarpment
                       (5, "move", "7.0", "allied-3ind-11-cav"), (6, "move", "7.0", "allied-9ind-3-12-fr")},
    "rg-illegal": {
        (1, "move", "7.0", "allied-201gd-2-sg"),     # 7.0: 201 Gd, Trieste, 150 Inf and Pavia never on May 27 AM
        (3, "move", "7.0", "allied-201gd-2-sg"),
        (5, "move", "7.0", "axis-trieste-65-1"),
        (6, "move", "7.0", "allied-150inf-5-gh"),
        (7, "move", "7.0", "axis-pavia-27"),
        (3, "move", "8.0", "allied-201gd-2-sg"),
        (4, "move", "9.0", "axis-ariete-5-ber"),
        (5, "move", "14.0", "axis-trieste-65-1"),
        (6, "move", "8.1", "allied-150inf-5-gh"),
        (7, "move", "8.3", "axis-pavia-27"),
        (9, "position", "10.0", ""),
        (10, "position", "7.0", ""),
    },
    "bg-illegal": {
        (2, "move", "4.1.2", "allied-50-150"),
        (3, "move", "4.0", "allied-201g"),
        (5, "move", "4.0", "allied-1arm-22"),
        (8, "move", "4.0", "allied-1atb"),
    },
    "bg-stacking": {(5, "position", "4.1.1", "")},
    # detours: legal, each warned at its step with the rule its direct route breaks
    "rg-legal": {(1, "move", "9.0", "axis-ariete-5-ber"), (2, "move", "10.0", "axis-ariete-5-ber")},
    "rg-detours": {(1, "move", "9.0", "allied-3ind-18-cav"), (2, "move", "8.0", "allied-1atb-8-rtr")},
    "dg-detour": {(1, "move", "16.0", "axis-cr-15-sch-2")},
    # phase rules judged on the position at the start of the side's movement (DG 17.0, SPI 17.0)
    "dg-feint": {(3, "move", "17.0", "allied-1sa-1"), (4, "move", "17.0", "allied-1sa-2")},
    "spi-command": {(2, "move", "17.0", "allied-1sa-1")},
}

# beyond one turn: rg-illegal's findings but 7.0's for 150 Inf's chit (drawn on May 28, once the tracker
# moved on twice); bg-illegal's, with 1 ATB's last move (step 9 after the tracker's step 8) judged on the
# 10 points of the new turn, and still too far
EXPECT["rg-two-turns"] = EXPECT["rg-illegal"] - {(10, "position", "7.0", "")}
EXPECT["bg-two-turns"] = {(9 if step == 8 else step, kind, rule, unit) for step, kind, rule, unit in EXPECT["bg-illegal"]}

#: logs whose findings are all warnings (legal logs that must be told something)
LEGAL_WITH_WARNINGS = frozenset({"rg-legal", "rg-detours", "dg-detour"})
