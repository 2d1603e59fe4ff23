//! Table layout, once: columns as wide as their widest cell, two spaces apart, some right-aligned.

/// The head and each row as a line; columns listed in `right` are right-aligned.
pub fn layout<H: AsRef<str>>(head: &[H], rows: &[Vec<String>], right: &[usize]) -> Vec<String> {
    let mut widths: Vec<usize> = head.iter().map(|h| h.as_ref().chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut text = String::new();
        for (k, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            let pad = w.saturating_sub(cell.chars().count());
            if right.contains(&k) {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            }
            text.push_str("  ");
        }
        text.trim_end().to_string()
    };
    let mut lines = vec![line(head.iter().map(AsRef::as_ref).collect())];
    lines.extend(rows.iter().map(|row| line(row.iter().map(String::as_str).collect())));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_their_widest_cell_and_right_ones_align_right() {
        let rows = vec![vec!["a".to_string(), "1".to_string()], vec!["longer".to_string(), "100".to_string()]];
        let lines = layout(&["name", "n"], &rows, &[1]);
        assert_eq!(lines, ["name      n", "a         1", "longer  100"]);
    }
}
