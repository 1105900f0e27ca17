//! Symmetries of a board: the permutations of its points that keep both the
//! adjacency and the lines. They are found by search, not written by hand, so
//! the count (16 for Rota's wheel and the square boards, 8 for the 3×3 grid)
//! is a checked fact.

use super::board::MAX_POINTS;
use super::point::{Point, PointSet};

/// A permutation of the points, with byte tables to map a whole set at once.
#[derive(Clone, Debug)]
pub struct Symmetry {
    image: [u8; MAX_POINTS],
    /// `table[k][b]`: the image of the set whose byte `k` is `b`.
    table: [[u32; 256]; 3],
}

impl Symmetry {
    fn new(image: [u8; MAX_POINTS], n: usize) -> Symmetry {
        let mut table = [[0u32; 256]; 3];
        for (k, t) in table.iter_mut().enumerate() {
            for (b, slot) in t.iter_mut().enumerate() {
                let mut out = 0u32;
                for bit in 0..8 {
                    let p = k * 8 + bit;
                    if b >> bit & 1 == 1 && p < n {
                        out |= 1 << image[p];
                    }
                }
                *slot = out;
            }
        }
        Symmetry { image, table }
    }

    #[inline]
    pub fn point(&self, p: Point) -> Point {
        Point(self.image[p.index()])
    }

    #[inline]
    pub fn set(&self, s: PointSet) -> PointSet {
        let v = s.0;
        PointSet(
            self.table[0][(v & 0xff) as usize]
                | self.table[1][(v >> 8 & 0xff) as usize]
                | self.table[2][(v >> 16 & 0xff) as usize],
        )
    }

    pub fn is_identity(&self, n: usize) -> bool {
        (0..n).all(|i| self.image[i] as usize == i)
    }
}

/// All permutations of `n` points preserving adjacency and the set of lines,
/// the identity first.
pub(crate) fn automorphisms(n: usize, adj: &[PointSet; MAX_POINTS], lines: &[PointSet]) -> Vec<Symmetry> {
    let mut found = Vec::new();
    let mut image = [u8::MAX; MAX_POINTS];
    let mut used = 0u32;
    search(0, n, adj, lines, &mut image, &mut used, &mut found);
    found.sort_by_key(|img: &[u8; MAX_POINTS]| (0..n).filter(|&i| img[i] as usize != i).count());
    found.into_iter().map(|img| Symmetry::new(img, n)).collect()
}

fn search(
    i: usize,
    n: usize,
    adj: &[PointSet; MAX_POINTS],
    lines: &[PointSet],
    image: &mut [u8; MAX_POINTS],
    used: &mut u32,
    found: &mut Vec<[u8; MAX_POINTS]>,
) {
    if i == n {
        let map = |s: PointSet| s.iter().fold(0u32, |acc, p| acc | 1 << image[p.index()]);
        if lines.iter().all(|&l| lines.contains(&PointSet(map(l)))) {
            found.push(*image);
        }
        return;
    }
    for cand in 0..n {
        if *used >> cand & 1 == 1 || adj[i].len() != adj[cand].len() {
            continue;
        }
        // Adjacency to every point already mapped must be kept both ways.
        let ok = (0..i).all(|j| adj[i].contains(Point(j as u8)) == adj[cand].contains(Point(image[j])));
        if ok {
            image[i] = cand as u8;
            *used |= 1 << cand;
            search(i + 1, n, adj, lines, image, used, found);
            *used &= !(1 << cand);
            image[i] = u8::MAX;
        }
    }
}
