//! A small XML well-formedness checker for the tests of the SVG chart (std has no parser).

/// A small well-formedness check: tags close in order, one root, attributes quoted,
/// and no `<` or `&` outside markup except as an entity.
pub fn well_formed(doc: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let (mut rest, mut roots) = (doc.strip_prefix("<?xml").ok_or("no XML declaration")?, 0);
    rest = &rest[rest.find("?>").ok_or("unclosed declaration")? + 2..];
    while let Some(at) = rest.find('<') {
        check_text(&rest[..at])?;
        let end = rest[at..].find('>').ok_or("unclosed tag")? + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let top = open.pop().ok_or(format!("</{name}> closes nothing"))?;
            (top == name).then_some(()).ok_or(format!("<{top}> closed by </{name}>"))?;
            continue;
        }
        let (body, empty) = tag.strip_suffix('/').map_or((tag, false), |b| (b, true));
        let name = body.split_whitespace().next().ok_or("empty tag")?;
        check_attributes(&body[name.len()..])?;
        roots += usize::from(open.is_empty());
        if !empty {
            open.push(name);
        }
    }
    check_text(rest)?;
    match (open.last(), roots) {
        (Some(name), _) => Err(format!("<{name}> never closed")),
        (None, 1) => Ok(()),
        (None, n) => Err(format!("{n} root elements")),
    }
}

fn check_text(text: &str) -> Result<(), String> {
    let entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"];
    for (at, _) in text.match_indices('&') {
        if !entities.iter().any(|e| text[at..].starts_with(e)) {
            return Err(format!("stray '&' in {text:?}"));
        }
    }
    match text.contains('<') || text.contains('>') {
        true => Err(format!("stray '<' or '>' in {text:?}")),
        false => Ok(()),
    }
}

/// ` name="value" name='value'`, nothing else.
fn check_attributes(mut rest: &str) -> Result<(), String> {
    while !rest.trim_start().is_empty() {
        rest = rest.trim_start();
        let (name, after) = rest.split_once('=').ok_or(format!("attribute without value in {rest:?}"))?;
        let quote = after.chars().next().filter(|q| *q == '"' || *q == '\'');
        let quote = quote.ok_or(format!("unquoted attribute {name:?}"))?;
        let close = after[1..].find(quote).ok_or(format!("unclosed attribute {name:?}"))?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("bad attribute name {name:?}"));
        }
        check_text(&after[1..close + 1])?;
        rest = &after[close + 2..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_finds_each_kind_of_fault() {
        let doc = |body: &str| format!("<?xml version=\"1.0\"?>\n<svg a=\"1\">{body}</svg>\n");
        assert_eq!(well_formed(&doc("<g b='2'><text>a &amp; b</text></g><rect/>")), Ok(()));
        for bad in ["<g>", "<g></text>", "</g>", "<g b=2/>", "<g b=\"2/>", "a & b", "a < b", "<g b=\"<\"/>"] {
            assert!(well_formed(&doc(bad)).is_err(), "{bad:?} passed");
        }
        assert!(well_formed("<?xml?><svg/><svg/>").is_err());
    }
}
