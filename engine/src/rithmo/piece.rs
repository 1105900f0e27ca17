//! Sides, shapes, the men they are made of, and pyramids as stacks of layers.

use std::fmt;

/// The two armies. Even (upper case in notation) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Side {
    Even,
    Odd,
}

impl Side {
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::Even => Side::Odd,
            Side::Odd => Side::Even,
        }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Side::Even => "Even",
            Side::Odd => "Odd",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The shapes of pieces. A pyramid is a stack of the other three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    Circle,
    Triangle,
    Square,
    Pyramid,
}

impl Shape {
    pub const ALL: [Shape; 4] = [Shape::Circle, Shape::Triangle, Shape::Square, Shape::Pyramid];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter, upper case for Even.
    pub const fn letter(self, side: Side) -> char {
        let c = match self {
            Shape::Circle => 'C',
            Shape::Triangle => 'T',
            Shape::Square => 'S',
            Shape::Pyramid => 'P',
        };
        match side {
            Side::Even => c,
            Side::Odd => c.to_ascii_lowercase(),
        }
    }

    /// The shape and side of a notation letter.
    pub fn from_letter(c: char) -> Option<(Shape, Side)> {
        let side = if c.is_ascii_uppercase() { Side::Even } else { Side::Odd };
        let shape = match c.to_ascii_uppercase() {
            'C' => Shape::Circle,
            'T' => Shape::Triangle,
            'S' => Shape::Square,
            'P' => Shape::Pyramid,
            _ => return None,
        };
        Some((shape, side))
    }
}

/// One man: a circle, triangle or square with its value (a whole piece, a
/// pyramid's layer, or a captured man), packed in 16 bits: the shape in the
/// top two, the value below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Man(u16);

/// The largest value a man may have.
pub const MAX_VALUE: u16 = (1 << 14) - 1;

impl Man {
    pub fn new(shape: Shape, value: u16) -> Man {
        debug_assert!(shape != Shape::Pyramid && value <= MAX_VALUE);
        Man((shape as u16) << 14 | value)
    }

    #[inline]
    pub fn shape(self) -> Shape {
        Shape::ALL[(self.0 >> 14) as usize]
    }

    #[inline]
    pub fn value(self) -> u16 {
        self.0 & MAX_VALUE
    }

    /// The packed form (for hashing).
    #[inline]
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The token `C8` / `t100`.
    pub fn token(self, side: Side) -> String {
        format!("{}{}", self.shape().letter(side), self.value())
    }
}

/// The most layers a pyramid may have.
pub const MAX_LAYERS: usize = 8;

/// A pyramid: its layers bottom first, and whether it still has all of
/// them (only then it attacks with its original total).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pyramid {
    pub layers: [Man; MAX_LAYERS],
    pub len: u8,
    pub intact: bool,
    /// While intact, the total of its layers, which it attacks with; 0 once
    /// struck (the total it started with then matters no more).
    pub original: u16,
}

impl Pyramid {
    /// A whole pyramid of these layers, bottom first.
    pub fn new(layers: &[Man]) -> Pyramid {
        let mut p = Pyramid { len: layers.len() as u8, intact: true, ..Pyramid::default() };
        p.layers[..layers.len()].copy_from_slice(layers);
        p.original = p.total();
        p
    }

    #[inline]
    pub fn layers(&self) -> &[Man] {
        &self.layers[..self.len as usize]
    }

    /// The sum of the remaining layers.
    #[inline]
    pub fn total(&self) -> u16 {
        self.layers().iter().map(|m| m.value()).sum()
    }

    #[inline]
    pub fn bottom(&self) -> Man {
        self.layers[0]
    }

    /// Removes the bottom layer (a strike).
    pub fn strike(&mut self) -> Man {
        let b = self.layers[0];
        self.layers.copy_within(1..self.len as usize, 0);
        self.len -= 1;
        self.layers[self.len as usize] = Man::default();
        self.intact = false;
        self.original = 0;
        b
    }

    /// A pyramid of these layers, bottom first, that has lost at least one
    /// layer to a strike.
    pub fn struck(layers: &[Man]) -> Pyramid {
        Pyramid { intact: false, original: 0, ..Pyramid::new(layers) }
    }

    /// `P[S36.S25…]`; a pyramid that lost a layer to a strike is marked
    /// `P*[S25…]` (it no longer attacks with its total).
    pub fn token(&self, side: Side) -> String {
        let layers: Vec<String> = self.layers().iter().map(|m| m.token(side)).collect();
        let struck = if self.intact { "" } else { "*" };
        format!("{}{struck}[{}]", Shape::Pyramid.letter(side), layers.join("."))
    }
}
