//! The indexer and de-indexer are inverse functions, and indices respect
//! symmetry: symmetric positions share one index.

use engine::merels::{Board, BoardKind, Dice, PointSet, Rules, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use solver::merels::index::{
    BINOMIAL, Cursor, colex_rank, colex_unrank, compress, compress_bits, deposit, deposit_bits, next_colex, select_bit,
    select_bit_by_bit,
};
use solver::merels::{BoardTables, Indexer, Sector};

fn random_state(board: &Board, w: u8, b: u8, rng: &mut impl Rng) -> State {
    let mut pts: Vec<u8> = (0..board.len() as u8).collect();
    for i in (1..pts.len()).rev() {
        pts.swap(i, rng.random_range(0..=i));
    }
    let own = pts[..w as usize].iter().fold(0u32, |a, &p| a | 1 << p);
    let other = pts[w as usize..(w + b) as usize].iter().fold(0u32, |a, &p| a | 1 << p);
    State { own: PointSet(own), other: PointSet(other), own_hand: 0, other_hand: 0 }
}

/// The colexicographic rank from its definition: the `t`-th member from
/// the bottom, at point `p`, adds `C(p, t)`.
fn colex_rank_slow(set: u32) -> u64 {
    (0..24).filter(|p| set >> p & 1 == 1).enumerate().map(|(t, p)| BINOMIAL.get(p as usize, t + 1)).sum()
}

#[test]
fn fast_ranking_helpers_equal_their_definitions() {
    // Every set of up to 24 points.
    for set in 0u32..1 << 24 {
        assert_eq!(colex_rank(set), colex_rank_slow(set), "{set:#x}");
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..200_000 {
        let (set, mask) = (rng.random::<u32>() & 0xff_ffff, rng.random::<u32>() & 0xff_ffff);
        assert_eq!(compress(set, mask), compress_bits(set, mask));
        let packed = rng.random::<u32>() & ((1u64 << mask.count_ones()) - 1) as u32;
        assert_eq!(compress(deposit(packed, mask), mask), packed);
        // Any bits, also beyond the mask's count.
        let any = rng.random::<u32>() & 0xff_ffff;
        assert_eq!(deposit(any, mask), deposit_bits(any, mask), "{any:#x} onto {mask:#x}");
        // The place of each set bit of a word, against counting the bits below.
        let word = rng.random::<u64>() >> (rng.random::<u32>() % 64);
        for r in 0..word.count_ones() {
            let at = select_bit(word, r);
            assert_eq!(select_bit_by_bit(word, r), at);
            assert!(word >> at & 1 == 1 && (word & ((1u64 << at) - 1)).count_ones() == r, "{word:#x} bit {r}");
        }
    }
}

#[test]
fn colex_and_pext_helpers_are_inverse() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for _ in 0..10_000 {
        let set: u32 = rng.random::<u32>() & 0xff_ffff;
        let k = set.count_ones() as usize;
        assert_eq!(colex_unrank(colex_rank(set), k), set);
        let mask: u32 = rng.random::<u32>() & 0xff_ffff;
        assert_eq!(deposit(compress(set, mask), mask), set & mask);
    }
}

#[test]
fn next_colex_steps_through_the_ranks() {
    for k in 1..=9usize {
        let last = BINOMIAL.get(24, k);
        let mut set = colex_unrank(0, k);
        for r in 1..last.min(20_000) {
            set = next_colex(set);
            assert_eq!(colex_rank(set), r, "k {k}");
            assert_eq!(set.count_ones() as usize, k);
        }
    }
}

/// Runs `f` on every board with the indexer of each of its sectors without
/// men in hand.
fn for_every_sector(mut f: impl FnMut(BoardKind, &'static Board, u8, u8, Indexer)) {
    for kind in BoardKind::ALL {
        let board = Board::get(kind, false);
        let tables = BoardTables::new(board);
        let m = board.men();
        for w in 0..=m {
            for b in 0..=m {
                if (w + b) as usize <= board.len() {
                    f(kind, board, w, b, Indexer::new(tables.clone(), Sector { w, wf: 0, b, bf: 0 }));
                }
            }
        }
    }
}

/// Reading states through a cursor, in ascending order with gaps of every
/// size (within a block of the side to move's men and across blocks),
/// gives what reading each index alone gives.
#[test]
fn states_read_through_a_cursor_equal_states_read_alone() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for_every_sector(|kind, _, w, b, ix| {
        let (mut cursor, mut canonical) = (Cursor::default(), Cursor::default());
        let mut i = rng.random_range(0..ix.size().min(50));
        while i < ix.size() {
            let st = ix.state_at_cursor(&mut cursor, i);
            assert_eq!(st, ix.state(i), "{kind} {w}/{b} index {i}");
            let alone = ix.is_canonical(i).then(|| ix.state(i));
            assert_eq!(ix.canonical_state_at_cursor(&mut canonical, i), alone, "{kind} {w}/{b} index {i}");
            i += match rng.random_range(0..4) {
                0 => 1,
                1 => rng.random_range(1..=12),
                2 => rng.random_range(1..=200),
                _ => rng.random_range(1..=ix.size().div_ceil(100).max(1)),
            };
        }
    });
}

#[test]
fn index_and_state_are_inverse_on_every_board() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    for_every_sector(|kind, board, w, b, ix| {
        // From states: the index's state is a symmetric image.
        for _ in 0..200 {
            let st = random_state(board, w, b, &mut rng);
            let i = ix.index(&st);
            assert!(i < ix.size());
            assert!(ix.is_canonical(i));
            let back = ix.state(i);
            assert!(
                board.symmetries().iter().any(|g| g.set(st.own) == back.own && g.set(st.other) == back.other),
                "{kind} {w}/{b}: {st:?} -> {i} -> {back:?}"
            );
            // Every symmetric image has the same index.
            for g in board.symmetries() {
                let img = State { own: g.set(st.own), other: g.set(st.other), ..st };
                assert_eq!(ix.index(&img), i);
            }
        }
        // From indices: canonical ones map back to themselves.
        for _ in 0..200 {
            let i = rng.random_range(0..ix.size());
            if ix.is_canonical(i) {
                assert_eq!(ix.index(&ix.state(i)), i);
            }
        }
    });
}

#[test]
fn canonical_indices_count_the_symmetry_classes() {
    // Burnside: classes = average number of fixed positions over the group.
    for kind in [BoardKind::Rota, BoardKind::Three] {
        let board = Board::get(kind, false);
        let tables = BoardTables::new(board);
        for (w, b) in [(3, 3), (2, 2), (3, 2), (1, 0)] {
            let ix = Indexer::new(tables.clone(), Sector { w, wf: 0, b, bf: 0 });
            let canonical = (0..ix.size()).filter(|&i| ix.is_canonical(i)).count();
            let n = board.len() as u32;
            let mut fixed_total = 0usize;
            for g in board.symmetries() {
                for own in 0u32..1 << n {
                    if own.count_ones() != w as u32 || g.set(PointSet(own)).0 != own {
                        continue;
                    }
                    for other in 0u32..1 << n {
                        if other & own == 0 && other.count_ones() == b as u32 && g.set(PointSet(other)).0 == other {
                            fixed_total += 1;
                        }
                    }
                }
            }
            assert_eq!(canonical * board.symmetries().len(), fixed_total, "{kind} {w}/{b}");
        }
    }
}

/// The positions with `w` men of one side and `b` of the other fixed by a
/// symmetry, from the lengths of its cycles on the points: each side's men
/// fill whole cycles.
fn fixed_pairs(cycles: &[u32], w: u32, b: u32) -> u64 {
    match cycles.split_first() {
        None => u64::from(w == 0 && b == 0),
        Some((&c, rest)) => {
            let mut n = fixed_pairs(rest, w, b);
            if w >= c {
                n += fixed_pairs(rest, w - c, b);
            }
            if b >= c {
                n += fixed_pairs(rest, w, b - c);
            }
            n
        }
    }
}

#[test]
fn nine_mens_sectors_hold_each_distinct_position_once() {
    // Burnside: the distinct positions of a sector up to the board's
    // symmetries are the mean number of positions a symmetry fixes; the
    // sector's used (canonical) indices must be as many. Gasser's 1991
    // tables of 5 v 5 add up to 490 positions more than this.
    let board = Board::get(BoardKind::Nine, false);
    let tables = BoardTables::new(board);
    let n = board.len() as u32;
    let cycles: Vec<Vec<u32>> = board
        .symmetries()
        .iter()
        .map(|g| {
            let mut seen = 0u32;
            let mut lengths = Vec::new();
            for p in 0..n {
                let mut len = 0;
                let mut q = p;
                while seen >> q & 1 == 0 {
                    seen |= 1 << q;
                    q = g.set(PointSet(1 << q)).0.trailing_zeros();
                    len += 1;
                }
                if len > 0 {
                    lengths.push(len);
                }
            }
            lengths
        })
        .collect();
    for (w, b, distinct) in [(3, 3, 169_626u64), (4, 4, 3_225_597), (5, 5, 30_914_424), (6, 4, 25_765_792)] {
        let fixed: u64 = cycles.iter().map(|c| fixed_pairs(c, w, b)).sum();
        assert_eq!(fixed % cycles.len() as u64, 0);
        assert_eq!(fixed / cycles.len() as u64, distinct, "{w} v {b} by Burnside");
        let ix = Indexer::new(tables.clone(), Sector { w: w as u8, wf: 0, b: b as u8, bf: 0 });
        let canonical = (0..ix.size()).filter(|&i| ix.is_canonical(i)).count() as u64;
        assert_eq!(canonical, distinct, "{w} v {b}: used indices");
    }
}

#[test]
fn nine_mens_sectors_have_the_sizes_of_malom() {
    // Each sector indexes the side to move's men up to the board's 16
    // symmetries (their orbits, counted here by Burnside) times every set of
    // the other side's men on the remaining points: the hash of Malom
    // (Gévay and Danner), whose standard database has 27,860,688,626 slots
    // in all and 9,193,626,407 in its 49 movement sectors.
    let board = Board::get(BoardKind::Nine, false);
    let tables = BoardTables::new(board);
    let n = board.len() as u32;
    let mut fixed = [0u64; 10];
    for g in board.symmetries() {
        for set in 0u32..1 << n {
            let w = set.count_ones() as usize;
            if w <= 9 && g.set(PointSet(set)).0 == set {
                fixed[w] += 1;
            }
        }
    }
    let orbits: Vec<u64> = fixed.iter().map(|f| f / board.symmetries().len() as u64).collect();
    assert_eq!(orbits[3], 158);
    let choose = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let size = |s: Sector| Indexer::new(tables.clone(), s).size();
    for w in 0..=9u8 {
        for b in 0..=9u8 {
            let expected = orbits[w as usize] * choose(24 - w as u64, b as u64);
            assert_eq!(size(Sector { w, wf: 0, b, bf: 0 }), expected, "{w} v {b}");
        }
    }
    let rules = Rules::new(BoardKind::Nine, Dice::None);
    let order = solver::merels::sector::solve_order(&rules);
    let all: u64 = order.iter().flatten().map(|&s| size(s)).sum();
    let movement: u64 = order.iter().flatten().filter(|s| s.is_movement()).map(|&s| size(s)).sum();
    assert_eq!((all, movement), (27_860_688_626, 9_193_626_407));
}

/// Visiting a sector grouped by the other side's men reaches every used
/// index once (and no unused one), each with a position that has that index:
/// on every board, for sectors with symmetric sets of either side.
#[test]
fn visiting_by_the_other_sides_men_reaches_every_position() {
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
    for (kind, sectors) in [
        (BoardKind::Three, vec![(0, 0), (1, 2), (3, 3), (2, 3)]),
        (BoardKind::Six, vec![(0, 3), (3, 0), (2, 4), (4, 4), (5, 3)]),
        (BoardKind::Nine, vec![(3, 3), (1, 4), (4, 2), (4, 4)]),
    ] {
        let board = Board::get(kind, false);
        let tables = BoardTables::new(board);
        for (w, b) in sectors {
            let ix = Indexer::new(tables.clone(), Sector { w, wf: 1, b, bf: 0 });
            let seen: Vec<AtomicU8> = (0..ix.size()).map(|_| AtomicU8::new(0)).collect();
            ix.for_each_by_other_men(|st, i| {
                assert_eq!(ix.index(st), i);
                assert_eq!((st.own.0.count_ones(), st.other.0.count_ones()), (w as u32, b as u32));
                assert_eq!(st.own.0 & st.other.0, 0);
                seen[i as usize].fetch_add(1, Relaxed);
            });
            for i in 0..ix.size() {
                let times = seen[i as usize].load(Relaxed);
                assert_eq!(times, ix.is_canonical(i) as u8, "{kind:?} {w} v {b}: index {i} visited {times} times");
            }
        }
    }
}
