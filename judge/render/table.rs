//! Table layout, once: columns as wide as their widest cell, two spaces apart, some
//! right-aligned; and the same fitted to a width, by cutting and then leaving out the columns
//! that matter least. A column of names (cases, solutions) is cut in the middle, so that names
//! that share a start stay apart.

use super::fit;

/// A column is cut to no fewer characters than this before it is left out.
const NARROWEST_CUT: usize = 8;

/// The head and each row as a line, columns listed in `right` right-aligned, no wider than
/// `width`: while it is too wide, the columns of `give`, in that
/// order, are cut (with `…`) to `NARROWEST_CUT` characters, and then left out. The columns of
/// `names` are cut in the middle, the others at their end.
pub fn fitted<H: AsRef<str>>(
    head: &[H],
    rows: &[Vec<String>],
    right: &[usize],
    width: usize,
    give: &[usize],
    names: &[usize],
) -> Vec<String> {
    let mut widths: Vec<usize> = head.iter().map(|h| fit::chars(h.as_ref())).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(fit::chars(cell));
        }
    }
    let mut kept = vec![true; widths.len()];
    let total = |widths: &[usize], kept: &[bool]| {
        let shown: Vec<usize> = widths.iter().zip(kept).filter(|(_, k)| **k).map(|(w, _)| *w).collect();
        shown.iter().sum::<usize>() + 2 * shown.len().saturating_sub(1)
    };
    for &column in give {
        let over = total(&widths, &kept).saturating_sub(width);
        if over == 0 {
            break;
        }
        let narrowest = NARROWEST_CUT.min(widths[column]);
        widths[column] = widths[column].saturating_sub(over).max(narrowest);
        if total(&widths, &kept) > width {
            kept[column] = false;
        }
    }
    // Each column of names cut as one, so that its names stay apart.
    let mut cut: Vec<Vec<String>> = rows.to_vec();
    for &column in names.iter().filter(|&&c| c < widths.len()) {
        let all: Vec<String> = rows.iter().map(|row| row.get(column).cloned().unwrap_or_default()).collect();
        for (row, name) in cut.iter_mut().zip(fit::cut_apart(&all, widths[column])) {
            if let Some(cell) = row.get_mut(column) {
                *cell = name;
            }
        }
    }
    let line = |cells: Vec<&str>| {
        let mut text = String::new();
        for (k, (cell, w)) in cells.iter().zip(&widths).enumerate().filter(|(k, _)| kept[*k]) {
            let cell = fit::cut(cell, *w);
            let pad = " ".repeat(w.saturating_sub(fit::chars(&cell)));
            match right.contains(&k) {
                true => text.push_str(&format!("{pad}{cell}  ")),
                false => text.push_str(&format!("{cell}{pad}  ")),
            }
        }
        text.trim_end().to_string()
    };
    let mut lines = vec![line(head.iter().map(AsRef::as_ref).collect())];
    lines.extend(cut.iter().map(|row| line(row.iter().map(String::as_str).collect())));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_their_widest_cell_and_right_ones_align_right() {
        let rows = vec![vec!["a".to_string(), "1".to_string()], vec!["longer".to_string(), "100".to_string()]];
        let lines = fitted(&["name", "n"], &rows, &[1], usize::MAX, &[], &[]);
        assert_eq!(lines, ["name      n", "a         1", "longer  100"]);
    }

    #[test]
    fn a_table_too_wide_is_cut_then_loses_columns_in_the_order_given() {
        let rows = vec![vec!["dp_array".into(), "stress/uniform-50000-s1".into(), "2.3 MiB".into()]];
        let head = ["solution", "slowest", "peak"];
        assert_eq!(fitted(&head, &rows, &[], 30, &[1, 2], &[])[1], "dp_array  stress/uni…  2.3 MiB");
        assert_eq!(fitted(&head, &rows, &[], 30, &[1, 2], &[1])[1], "dp_array  stres…00-s1  2.3 MiB");
        assert_eq!(fitted(&head, &rows, &[], 20, &[1, 2], &[])[1], "dp_array  2.3 MiB");
        assert!(fitted(&head, &rows, &[], 8, &[1, 2], &[]).iter().all(|l| l == "solution" || l == "dp_array"));
    }
}
