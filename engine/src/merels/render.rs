//! Drawing a position in the terminal.

use super::board::{Board, BoardKind};
use super::point::{Point, Side};
use super::position::Position;

/// Rota's wheel: digits mark the points in notation order (c n ne e se s sw
/// w nw); the rim turns at the slashes, which are no points.
const WHEEL: &str = concat!(
    "              n\n",
    "          /---1---\\\n",
    "    nw  8     |     2  ne\n",
    "       / \\    |    / \\\n",
    "   w  7-------0-------3  e\n",
    "       \\ /    |    \\ /\n",
    "    sw  6     |     4  se\n",
    "          \\---5---/\n",
    "              s",
);

fn symbol(pos: &Position, p: Point) -> char {
    match pos.at(p) {
        Some(Side::X) => 'X',
        Some(Side::O) => 'O',
        None => '.',
    }
}

/// The board with its men, the side to move and the hands, as text.
pub fn render(pos: &Position, board: &Board) -> String {
    let mut out = match pos.kind {
        BoardKind::Rota => WHEEL
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d) => symbol(pos, Point(d as u8)),
                None => c,
            })
            .collect::<String>(),
        _ => grid(pos, board),
    };
    out.push_str(&format!("\n{} to move; in hand: x {}, o {}\n", pos.to_move, pos.hand[0], pos.hand[1]));
    out
}

/// The square boards, drawn from the file and rank in each point's name.
fn grid(pos: &Position, board: &Board) -> String {
    let coord = |p: Point| {
        let name = board.name(p).as_bytes();
        ((name[0] - b'a') as usize, (name[1] - b'1') as usize)
    };
    let size = board.points().map(|p| coord(p).0.max(coord(p).1)).max().unwrap_or(0) + 1;
    let (w, h) = (4 * (size - 1) + 1, 2 * (size - 1) + 1);
    let mut cells = vec![vec![' '; w]; h];
    let at = |(f, r): (usize, usize)| (2 * (size - 1 - r), 4 * f);
    for p in board.points() {
        for q in board.neighbours(p) {
            if q <= p {
                continue;
            }
            let ((r1, c1), (r2, c2)) = (at(coord(p)), at(coord(q)));
            if r1 == r2 {
                cells[r1][c1.min(c2) + 1..c1.max(c2)].fill('-');
            } else if c1 == c2 {
                for row in &mut cells[r1.min(r2) + 1..r1.max(r2)] {
                    row[c1] = '|';
                }
            } else {
                let (r, c) = ((r1 + r2) / 2, (c1 + c2) / 2);
                cells[r][c] = if (r2 > r1) == (c2 > c1) { '\\' } else { '/' };
            }
        }
    }
    for p in board.points() {
        let (r, c) = at(coord(p));
        cells[r][c] = symbol(pos, p);
    }
    let mut out = String::new();
    for (i, row) in cells.iter().enumerate() {
        let label = if i % 2 == 0 { format!("{:>2}  ", size - i / 2) } else { "    ".to_string() };
        out.push_str(&label);
        out.push_str(row.iter().collect::<String>().trim_end());
        out.push('\n');
    }
    out.push_str("    ");
    for f in 0..size {
        out.push((b'a' + f as u8) as char);
        if f + 1 < size {
            out.push_str("   ");
        }
    }
    out
}
