pub fn sub(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_works() {
        assert_eq!(sub(3, 1), 2);
    }

    #[test]
    fn add_zero() {
        assert_eq!(sub(0, 0), 0);
    }

    #[test]
    fn panics() {
        let v: Vec<i32> = Vec::new();
        let _ = v[3];
    }
}
