//! Pictures of a position: text for the terminal, SVG for a file.

use std::fmt::Write;

use super::piece::{Shape, Side};
use super::position::Position;
use super::square::Square;

fn token(pos: &Position, s: Square) -> String {
    match pos.piece_at(s) {
        None => {
            if (s.file() + s.rank()).is_multiple_of(2) {
                ".".into()
            } else {
                " ".into()
            }
        }
        Some(p) => format!("{}{}", p.shape.letter(p.side), p.value),
    }
}

/// Columns of a square in the text board: the widest token, a letter and
/// a value of five digits (or a pyramid's total), and a space.
const CELL: usize = 7;

/// The board as text from Even's side: rank 16 at the top, each piece as
/// its letter and value (upper case Even), pyramids' layers listed below.
pub fn text(pos: &Position) -> String {
    text_for(pos, Side::Even)
}

/// The board as text as `viewer` sees it across the table: from Even's
/// side rank 16 at the top and file a on the left, from Odd's side turned
/// half round (rank 1 at the top, file h on the left).
pub fn text_for(pos: &Position, viewer: Side) -> String {
    let mut out = String::new();
    let ranks: Vec<u8> = if viewer == Side::Even { (0..16).rev().collect() } else { (0..16).collect() };
    let files: Vec<u8> = if viewer == Side::Even { (0..8).collect() } else { (0..8).rev().collect() };
    for (i, &rank) in ranks.iter().enumerate() {
        let _ = write!(out, "{:>3} ", rank + 1);
        for &file in &files {
            let _ = write!(out, "{:>CELL$}", token(pos, Square::new(file, rank)));
        }
        out.push('\n');
        if i == 7 {
            let _ = writeln!(out, "    {}", "-".repeat(8 * CELL));
        }
    }
    out.push_str("    ");
    for &f in &files {
        let _ = write!(out, "{:>CELL$}", (b'a' + f) as char);
    }
    out.push('\n');
    for side in [Side::Even, Side::Odd] {
        for (s, p) in pos.pyramids(side) {
            let _ = writeln!(out, "  pyramid on {s}: {} ({}whole)", p.token(side), if p.intact { "" } else { "not " });
        }
    }
    let captured = |side: Side| {
        let c = pos.captured_by(side);
        format!("{}, value {}", crate::names::count(c.count(), "man", "men"), c.value)
    };
    let _ = writeln!(
        out,
        "  {} to move · captured by Even: {} · by Odd: {} · quiet plies {} · move {}",
        pos.side_to_move(),
        captured(Side::Even),
        captured(Side::Odd),
        pos.clock,
        pos.fullmove
    );
    out
}

/// The board as an SVG picture: squares, shapes and values.
pub fn svg(pos: &Position) -> String {
    let cell = 48.0;
    let (margin, w, h) = (28.0, 8.0 * 48.0, 16.0 * 48.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif">"#,
        w + 2.0 * margin,
        h + 2.0 * margin + 40.0,
        w + 2.0 * margin,
        h + 2.0 * margin + 40.0
    );
    let _ = write!(s, r##"<rect width="100%" height="100%" fill="#f4efe1"/>"##);
    for rank in 0..16u8 {
        for file in 0..8u8 {
            let (x, y) = (margin + file as f64 * cell, margin + (15 - rank) as f64 * cell);
            let fill = if (file + rank).is_multiple_of(2) { "#b58863" } else { "#f0d9b5" };
            let _ = write!(s, r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"/>"#);
            let sq = Square::new(file, rank);
            if let Some(p) = pos.piece_at(sq) {
                let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
                let (fill, stroke, ink) = match p.side {
                    Side::Even => ("#fffdf7", "#222", "#111"),
                    Side::Odd => ("#2b2b2b", "#000", "#fff"),
                };
                let r = cell * 0.42;
                match p.shape {
                    Shape::Circle => {
                        let _ = write!(
                            s,
                            r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#
                        );
                    }
                    Shape::Triangle => {
                        let _ = write!(
                            s,
                            r#"<polygon points="{},{} {},{} {},{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
                            cx,
                            cy - r,
                            cx - r,
                            cy + r * 0.8,
                            cx + r,
                            cy + r * 0.8
                        );
                    }
                    Shape::Square => {
                        let _ = write!(
                            s,
                            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
                            cx - r * 0.85,
                            cy - r * 0.85,
                            r * 1.7,
                            r * 1.7
                        );
                    }
                    Shape::Pyramid => {
                        // A stack: one band per layer, bottom first.
                        let layers = p.pyramid.map_or(1, |py| py.len as usize);
                        let band = r * 1.7 / layers as f64;
                        for i in 0..layers {
                            let bw = r * 1.8 * (1.0 - i as f64 / (layers as f64 + 1.0));
                            let by = cy + r * 0.85 - (i + 1) as f64 * band;
                            let _ = write!(
                                s,
                                r#"<rect x="{}" y="{by}" width="{bw}" height="{band}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>"#,
                                cx - bw / 2.0
                            );
                        }
                    }
                }
                let size = if p.value >= 100 { 12 } else { 14 };
                let ty = match p.shape {
                    Shape::Triangle => cy + 8.0,
                    // Above the stack, outlined, so it reads over the layers.
                    Shape::Pyramid => y + 13.0,
                    _ => cy + 5.0,
                };
                let _ = write!(
                    s,
                    r#"<text x="{cx}" y="{ty}" font-size="{size}" text-anchor="middle" fill="{ink}" stroke="{fill}" stroke-width="3" paint-order="stroke" font-weight="bold">{}</text>"#,
                    p.value
                );
            }
        }
    }
    for f in 0..8u8 {
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="#333">{}</text>"##,
            margin + f as f64 * cell + cell / 2.0,
            margin + h + 18.0,
            (b'a' + f) as char
        );
    }
    for r in 0..16u8 {
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="#333">{}</text>"##,
            margin / 2.0,
            margin + (15 - r) as f64 * cell + cell / 2.0 + 5.0,
            r + 1
        );
    }
    let c = |side: Side| pos.captured_by(side);
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="13" fill="#333">{} to move · quiet plies {} · move {}</text>"##,
        margin,
        margin + h + 38.0,
        pos.side_to_move(),
        pos.clock,
        pos.fullmove
    );
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="13" fill="#333">captured by Even: {} men ({}) · by Odd: {} men ({})</text>"##,
        margin,
        margin + h + 56.0,
        c(Side::Even).count(),
        c(Side::Even).value,
        c(Side::Odd).count(),
        c(Side::Odd).value
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board's rows from a text picture: rank label and the eight cells
    /// cut at their columns (each keeps its leading space).
    fn rows(text: &str) -> Vec<(String, Vec<String>)> {
        text.lines()
            .filter(|l| l.len() > 4 && l[..4].trim().parse::<u8>().is_ok())
            .map(|l| {
                let cells = (0..8).map(|f| l.get(4 + CELL * f..4 + CELL * (f + 1)).unwrap_or("").to_string()).collect();
                (l[..4].trim().to_string(), cells)
            })
            .collect()
    }

    #[test]
    fn every_piece_keeps_its_column_whatever_its_value() {
        let five = "8/8/8/8/8/8/8/8/8/8/8/8/8/8/s16383,c9999,6/S12345,S16383,T100,5 e - - 0 1";
        for rfen in [crate::rithmo::START, five] {
            let pos: Position = rfen.parse().unwrap();
            let text = text(&pos);
            let rows = rows(&text);
            assert_eq!(rows.len(), 16, "{text}");
            for (label, cells) in &rows {
                let rank: u8 = label.parse::<u8>().unwrap() - 1;
                for (f, cell) in cells.iter().enumerate() {
                    let want = token(&pos, Square::new(f as u8, rank));
                    assert!(cell.starts_with(' '), "rank {label} file {f}: {cell:?} touches its neighbour\n{text}");
                    assert_eq!(cell.trim(), want.trim(), "rank {label} file {f}\n{text}");
                }
            }
        }
    }

    #[test]
    fn odd_sees_the_board_turned_half_round() {
        let pos: Position = "8/8/8/8/8/8/8/8/8/8/8/8/8/8/s16383,c9,6/S12345,S16,T100,5 o - - 0 1".parse().unwrap();
        let (even, odd) = (rows(&text(&pos)), rows(&text_for(&pos, Side::Odd)));
        assert_eq!(odd[0].0, "1");
        for (e, o) in even.iter().zip(odd.iter().rev()) {
            assert_eq!(e.0, o.0);
            let turned: Vec<&String> = o.1.iter().rev().collect();
            assert_eq!(e.1.iter().collect::<Vec<_>>(), turned);
        }
        let files = |t: &str| {
            t.lines()
                .find(|l| l.trim_start().starts_with("a") || l.trim_start().starts_with("h"))
                .unwrap()
                .split_whitespace()
                .collect::<String>()
        };
        assert_eq!(files(&text(&pos)), "abcdefgh");
        assert_eq!(files(&text_for(&pos, Side::Odd)), "hgfedcba");
    }
}
