// How to play, in English: the rules the server plays (docs/rules.md), written for players. The
// same shape as id.js (rules.js shows it).

export default {
  games: {
    gaple: {
      about: "The block game of Indonesian online tables: block the line, every pass is paid, and "
        + "a round is won with a multiplier from ×1 to ×5. Played for chips.",
      sections: [
        { title: "Tiles and turns", body: [[
          "Double-six set: 28 tiles, 2 to 4 players, 7 tiles each. With 2 or 3 players the "
            + "undealt tiles stay face down, out of play; nobody draws.",
          "The player who opens is picked at random (or, if the table chose it, the winner of the "
            + "previous round). The first tile may be any tile; turns go clockwise.",
          "A tile goes on either end of the line when one of its numbers equals that end's number. "
            + "When it fits both ends, you choose the end.",
          "If you can play, you must. With no tile that fits you must pass (Lewat); the server "
            + "does it for you at once.",
        ] ] },
        { title: "Lewat: every pass is paid", body: [
          "A player who passes pays 1 × stake at once to the previous player (the one who played "
            + "just before them), even if that player has just passed too. The payment happens "
            + "there and then and is written in the table's history.",
        ] },
        { title: "End of a round", body: [[
          "Going out: the round ends the moment a player plays their last tile; they win.",
          "Dead-End: the round ends the moment a tile leaves nobody able to play. No pass is paid. "
            + "The winner: the lowest total of pips in hand, then the fewest tiles, then the "
            + "smallest top numbers, then the smallest bottom numbers; if still tied, whoever "
            + "comes first in turn order counting from the player of the last tile.",
        ] ] },
        { title: "Multipliers", body: [
          "A round's multiplier comes from the last tile and the two ends of the line just before "
            + "it was played:",
          { table: [
            ["Name", "×", "When"],
            ["Single", "1", "the round ended in a Dead-End"],
            ["Double", "2", "the last tile is not a double and matches one way only"],
            ["Triple", "3", "the last tile is a double and matches one way only"],
            ["Quartet", "4", "the tile [a|b] matches both ends at once: the ends are exactly a and b"],
            ["Quintet", "5", "the tile [v|v] and both ends show v"],
          ] },
        ] },
        { title: "Paying for a lost round: normal and bet tables", body: [[
          "Normal table: every loser pays the winner stake × multiplier.",
          "Bet table: every loser pays stake × multiplier × the pips left in their hand. A loser "
            + "holding only [0|0] pays nothing. A pass still costs 1 stake.",
          "Chips never go below zero: every payment is capped at what the payer has on the table, "
            + "and the shortfall is recorded. A player below one stake is not dealt in until they "
            + "sit again with new chips.",
        ] ] },
        { title: "Example: passes, multipliers and the bet table", body: [
          "Four players, Ani (seat 0), Budi (1), Citra (2) and Dewi (3), with 1,000 chips each; "
            + "stake 10. The line's left end shows 2 and its right end 5. In hand: Ani [2|5] "
            + "(7 pips), Budi [0|1] [0|6] (7), Citra [3|4] [6|6] (19), Dewi [0|0] [1|3] [4|6] (14).",
          [
            "Citra's turn: she has no 2 and no 5, so she passes and pays 10 chips to her previous "
              + "player, Budi.",
            "Dewi's turn: she passes too, and pays 10 to Citra, even though Citra has just passed.",
            "Ani's turn: she plays her last tile, [2|5]. The ends were exactly 2 and 5, so the tile "
              + "joins both sides at once: Quartet ×4. Ani wins.",
          ],
          { table: [
            ["Payer", "Normal table: 10 × 4", "Bet table: 10 × 4 × pips"],
            ["Budi (7 pips)", "40", "280"],
            ["Citra (19 pips)", "40", "760"],
            ["Dewi (14 pips)", "40", "560"],
            ["Ani receives", "120", "1,600"],
          ] },
          "Final chips on a normal table: Ani 1,120, Budi 970, Citra 960, Dewi 950. On a bet "
            + "table: Ani 2,600, Budi 730, Citra 240, Dewi 430. They still add up to 4,000: chips "
            + "only move between the players.",
          "Other multipliers with the same ends, 2 and 5: [5|6] on the 5 is a Double ×2; [5|5] on "
            + "the 5 is a Triple ×3; [5|5] when both ends show 5 is a Quintet ×5; [2|5] when both "
            + "ends show 5 matches only with its 5, so a Double ×2.",
          "A Dead-End: Dewi plays [4|6], both ends show 4 and all seven 4s are on the table. The "
            + "round ends at once, Single ×1, with no pass. Ani [0|5] and Budi [2|3] both have "
            + "5 pips and 1 tile; top numbers 0 against 2, so Ani wins.",
        ] },
        { title: "Round after round", body: [
          "A Gaple table deals the next round by itself after a short pause, while a human sits "
            + "there and at least two players hold a stake. When a round ends, every hand is shown.",
        ] },
      ],
    },
    moon: {
      about: "Trick-taking with bids and trumps: four players in partnerships (or three, each "
        + "alone), to 21 points.",
      sections: [
        { title: "Players and tiles", body: [[
          "Four players in two partnerships sitting opposite: seats 0 and 2 against 1 and 3.",
          "Double-six set, 7 tiles each; all 28 tiles are dealt.",
          "There are seven suits (0 to 6). A non-double belongs to two suits, a double to one. "
            + "Within a suit the double is highest, then the other tiles by their other number.",
        ] ] },
        { title: "Bids and trumps", body: [[
          "Each player, clockwise, bids or passes once. A bid is 4, 5, 6, 7 or 21 and must be "
            + "higher than the bids before it. A bid of 21 ends the bidding at once.",
          "If everyone passes, the tiles are shuffled and dealt again.",
          "The bid winner names trumps: a number 0 to 6, the doubles, or no trumps.",
        ] ] },
        { title: "Tricks", body: [[
          "The bid winner leads the first trick; the winner of each trick leads the next.",
          "When a trump is led, everyone must play a trump if they have one. Otherwise the suit is "
            + "the led tile's higher number, and everyone must follow it if they can. A player who "
            + "cannot follow may play anything, a trump included.",
          "The highest trump wins; with no trump played, the highest tile of the suit led wins.",
        ] ] },
        { title: "Points", body: [[
          "A bidding side that makes its bid scores 1 point per trick it won.",
          "A bid of 21 made (all seven tricks) wins the match at once.",
          "A bidding side that fails loses the value of its bid; scores may go negative.",
          "The other side always scores 1 point per trick it won.",
          "The match ends once a side has 21 points or more and is ahead.",
        ] ] },
        { title: "Three-handed Moon", body: [
          "With three players, each plays alone with 22 tiles (no blanks except [0|0]). One tile "
            + "lies face down in the middle: the bid winner takes it after naming trumps, then "
            + "discards one tile face down.",
        ] },
      ],
    },
    cross: {
      about: "A draw game opened by a double as the hub of a cross; its four arms must be filled "
        + "first. To 100 points.",
      sections: [
        { title: "Tiles and opening", body: [[
          "2 to 4 players, each alone. With 2 players 7 tiles each, with 3 or 4 players 5 each; the "
            + "rest is the boneyard, face down.",
          "Whoever holds the highest double opens with it: that is the hub of the cross.",
        ] ] },
        { title: "The cross and its arms", body: [[
          "Until all four sides of the hub (north, east, south, west) hold a tile, tiles go only "
            + "on the hub's empty sides.",
          "Once the cross is complete, the four arms grow from their open ends.",
          "If you can play, you must. If you cannot, you draw one tile and must play it if it "
            + "fits; otherwise the turn passes.",
          "The boneyard's last two tiles are never drawn; after that a player who cannot play passes.",
        ] ] },
        { title: "Points", body: [[
          "Domino: the player who goes out scores the pips in all the opponents' hands.",
          "Blocked: the player with the fewest pips scores the opponents' pips minus their own "
            + "(opponents 30, own 13: scores 17). If the lowest totals tie, nobody scores.",
          "The first to reach 100 points (or the table's target) wins.",
        ] ] },
      ],
    },
    mexican_train: {
      about: "Double-twelve set, personal trains, markers, a Mexican Train for everyone, and "
        + "doubles that must be covered. 13 rounds; the lowest score wins.",
      sections: [
        { title: "Tiles and the engine", body: [[
          "2 to 8 players. Tiles: 15 each with 2 to 4 players, 12 with 5 or 6, 10 with 7 or 8. The "
            + "rest is the boneyard.",
          "Round 1 starts from the engine [12|12], round 2 from [11|11], and so on down to [0|0].",
        ] ] },
        { title: "Trains and markers", body: [[
          "Every player has a train of their own from the hub. The Mexican Train is open to everyone.",
          "You may play on your own train, on the Mexican Train, and on another player's train "
            + "that carries their marker.",
          "A player who cannot play draws one tile and plays it if it fits; otherwise they put "
            + "their marker on their own train. The marker comes off when its owner plays on "
            + "their train again.",
          "First turn: you may play as many tiles as you can on your own train.",
        ] ] },
        { title: "Doubles", body: [
          "Playing a double gives you another play at once. A double at the end of a train must be "
            + "covered with a matching tile before any other play; if you cannot, the next player "
            + "must cover it.",
        ] },
        { title: "Points", body: [[
          "A round ends when a player goes out, or when every player is stuck.",
          "Whoever went out scores 0; everyone else scores the pips in their hand.",
          "After the last round, the lowest total wins.",
        ] ] },
      ],
    },
  },
  common: [
    { title: "At the online table", body: [[
      "The server decides every rule. The tiles you may play are lifted and outlined in gold.",
      "Every turn has a time limit (the ring beside a name). When it runs out, the server plays "
        + "for you; after three in a row you count as away and a bot plays until you are back.",
      "When your only move is to pass or draw, the server makes it at once.",
      "Other hands are never shown during a round; when a round ends, the hands are shown.",
    ] ] },
  ],
};
