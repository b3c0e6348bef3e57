//! Result tables described once (columns, then rows of cells) and rendered as aligned text for the terminal
//! or as a Markdown table for committed reports (`netmeas synth`, `netmeas bench`).

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// One cell. `flag` marks a missed target: upper case in text, bold in Markdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub flag: bool,
}

impl<T: Into<String>> From<T> for Cell {
    fn from(text: T) -> Cell {
        Cell { text: text.into(), flag: false }
    }
}

/// A cell marking a missed target.
pub fn flagged(text: impl Into<String>) -> Cell {
    Cell { text: text.into(), flag: true }
}

/// A table: column headings with their alignment, and rows of as many cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    columns: Vec<(String, Align)>,
    rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table { columns: columns.iter().map(|(h, a)| (h.to_string(), *a)).collect(), rows: Vec::new() }
    }

    /// Adds a row; it must have a cell per column.
    pub fn row(&mut self, cells: Vec<Cell>) {
        assert_eq!(cells.len(), self.columns.len(), "a cell per column");
        self.rows.push(cells);
    }

    /// Columns padded to their widest cell (in characters), separated by two spaces, a line per row after
    /// the headings; no trailing spaces.
    pub fn text(&self) -> String {
        let show = |c: &Cell| if c.flag { c.text.to_uppercase() } else { c.text.clone() };
        let mut lines: Vec<Vec<String>> = vec![self.columns.iter().map(|c| c.0.clone()).collect()];
        lines.extend(self.rows.iter().map(|r| r.iter().map(show).collect()));
        let widths: Vec<usize> =
            (0..self.columns.len()).map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0)).collect();
        let mut s = String::new();
        for l in &lines {
            let cells: Vec<String> = l
                .iter()
                .zip(&self.columns)
                .zip(&widths)
                .map(|((t, (_, a)), w)| match a {
                    Align::Left => format!("{t:<w$}"),
                    Align::Right => format!("{t:>w$}"),
                })
                .collect();
            s += cells.join("  ").trim_end();
            s.push('\n');
        }
        s
    }

    /// A GitHub-flavoured Markdown table (right-aligned columns marked `---:`).
    pub fn markdown(&self) -> String {
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let mut s = line(self.columns.iter().map(|c| c.0.clone()).collect());
        s += &format!(
            "|{}|\n",
            self.columns.iter().map(|c| if c.1 == Align::Right { "---:" } else { "---" }).collect::<Vec<_>>().join("|")
        );
        for r in &self.rows {
            s += &line(
                r.iter()
                    .map(|c| {
                        let t = c.text.replace('|', "\\|");
                        if c.flag {
                            format!("**{t}**")
                        } else {
                            t
                        }
                    })
                    .collect(),
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(&[("name", Align::Left), ("MHz", Align::Right), ("≥150", Align::Left)]);
        t.row(vec!["rmw".into(), "194.4".into(), "yes".into()]);
        t.row(vec!["fridge_dp".into(), "98.0".into(), flagged("no")]);
        t
    }

    #[test]
    fn text_pads_columns_to_the_widest_cell() {
        assert_eq!(
            sample().text(),
            "name         MHz  ≥150\n\
             rmw        194.4  yes\n\
             fridge_dp   98.0  NO\n"
        );
    }

    #[test]
    fn markdown_marks_alignment_and_flags() {
        assert_eq!(
            sample().markdown(),
            "| name | MHz | ≥150 |\n|---|---:|---|\n| rmw | 194.4 | yes |\n| fridge_dp | 98.0 | **no** |\n"
        );
    }

    #[test]
    #[should_panic(expected = "a cell per column")]
    fn a_short_row_is_a_bug() {
        sample().row(vec!["x".into()]);
    }
}
