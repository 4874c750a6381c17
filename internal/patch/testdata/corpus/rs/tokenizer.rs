//! A tokenizer for a small expression language: test input for the patch
//! corpus.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Number(f64),
    Ident(String),
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    Comma,
}

#[derive(Debug, PartialEq)]
pub struct Error {
    pub pos: usize,
    pub msg: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.pos, self.msg)
    }
}

impl std::error::Error for Error {}

pub struct Tokenizer<'a> {
    src: &'a [u8],
    pos: usize,
}

impl<'a> Tokenizer<'a> {
    pub fn new(src: &'a str) -> Self {
        Tokenizer { src: src.as_bytes(), pos: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
    }

    fn number(&mut self) -> Result<Token, Error> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !(c.is_ascii_digit() || c == b'.') {
                break;
            }
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).unwrap();
        text.parse()
            .map(Token::Number)
            .map_err(|_| Error { pos: start, msg: format!("bad number {:?}", text) })
    }

    fn ident(&mut self) -> Token {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !(c.is_ascii_alphanumeric() || c == b'_') {
                break;
            }
            self.pos += 1;
        }
        Token::Ident(String::from_utf8_lossy(&self.src[start..self.pos]).into_owned())
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Result<Token, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.skip_space();
        let c = self.peek()?;
        let tok = match c {
            b'0'..=b'9' | b'.' => return Some(self.number()),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => return Some(Ok(self.ident())),
            b'+' => Token::Plus,
            b'-' => Token::Minus,
            b'*' => Token::Star,
            b'/' => Token::Slash,
            b'(' => Token::LParen,
            b')' => Token::RParen,
            b',' => Token::Comma,
            _ => {
                let pos = self.pos;
                self.pos += 1;
                return Some(Err(Error { pos, msg: format!("unexpected {:?}", c as char) }));
            }
        };
        self.pos += 1;
        Some(Ok(tok))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_operators() {
        let toks: Vec<_> = Tokenizer::new("1 + 2.5*x").collect::<Result<_, _>>().unwrap();
        assert_eq!(toks.len(), 5);
    }

    #[test]
    fn bad_character() {
        let err = Tokenizer::new("1 $ 2").nth(1).unwrap().unwrap_err();
        assert_eq!(err.pos, 2);
    }
}
