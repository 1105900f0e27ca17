//! The positions of the search benchmark (`ludus rithmo bench`): the
//! start, middlegames and endgames. The nodes a search to a fixed depth
//! visits over them are a fingerprint of the search.

/// Each position's name and RFEN.
pub const POSITIONS: [(&str, &str); 5] = [
    ("start", super::START),
    (
        "middlegame, contact",
        "s49,s121,4,s225,1/s28,s66,t36,t30,t56,t64,s120,1/t16,c9,1,c25,c49,c81,t90,1/2,c3,c5,1,c9,1,s361/4,c7,t100,2/8/3,t12,4/7,p[s49.t36.t25.c16]/8/8/3,C4,4/T81,7/1,C8,1,C6,C16,1,C4,C2/1,T72,C64,C36,2,T6,T9/S153,P[S36.S25.T16.T9.C4.C1],T49,T42,T20,T25,S45,S15/S289,S169,1,S81,3,S25 e s64 - 9 23",
    ),
    (
        "middlegame, open files",
        "s49,s121,4,s225,s361/s28,s66,t36,t30,t56,t64,s120,1/t16,1,c9,c25,c49,c81,t90,1/2,c3,c5,c7,c9,2/3,t12,1,t100,2/8/8/4,p[s64.s49.t36.t25.c16],3/8/8/8/T81,2,C4,4/1,C8,1,C6,C16,C4,1,C2/1,T72,C64,C36,2,T6,T9/S153,P[S36.S25.T16.T9.C4.C1],T49,T42,T20,T25,S45,S15/S289,S169,1,S81,3,S25 e - - 34 18",
    ),
    (
        "endgame, race to fifteen",
        "4,s225,3/8/2,c25,5/8/5,t90,2/8/8/3,c9,4/8/2,C8,5/8/4,T20,3/8/8/1,S45,6/8 e c3.c5.c7.t16.t12.c49.c81.t36.t30.t56.t64.s28 C2.C4.C6.C16.C36.C64.T6.T9.T25.T42.T49.S15 12 60",
    ),
    (
        "endgame, pyramids",
        "8/3,p[t25.c16],4/8/8/2,c9,5/8/8/8/8/8/8/5,C4,2/8/4,P[T9.C4.C1],3/8/8 o c3.c5.c7.c25.c49.c81.t16.t12 C8.C6.C2.C16.C36.C64.T81.T72 0 50",
    ),
];

#[cfg(test)]
mod tests {
    use super::super::{Position, RuleSet, Status};
    use super::POSITIONS;

    #[test]
    fn the_bench_positions_are_games_in_progress() {
        for (name, rfen) in POSITIONS {
            let pos: Position = rfen.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(pos.to_string(), rfen, "{name}");
            assert_eq!(pos.status(&RuleSet::common()), Status::Ongoing, "{name}");
        }
    }
}
