//! Which pair of a scene is in focus: a scene checks several pairs (a robot's links, a
//! Pinocchio model's collision pairs) but `solve`, the viewer and Python's `run` answer
//! one at a time, so the user needs to pick it (by index or by the bodies' names) and
//! to be told which one was answered.

use super::Scene;

impl Scene {
    /// How messages and tables name body `i`: its own name when the file gave one (a
    /// link, a geometry object), with its index so that it can be found in the file.
    pub fn body_label(&self, i: usize) -> String {
        match &self.bodies[i].name {
            Some(name) => format!("{name} (body {i})"),
            None => format!("body {i}"),
        }
    }

    /// The index into [`Scene::pairs`] that `text` names: `K` (an index) or
    /// `NAME1,NAME2` (the two bodies' names, in either order). A bad value is refused
    /// with the valid range or names, so that the user can correct it.
    pub fn find_pair(&self, text: &str) -> Result<usize, String> {
        let text = text.trim();
        if let Ok(k) = text.parse::<usize>() {
            return self.check_pair_index(k).map(|()| k);
        }
        let Some((first, second)) = text.split_once(',') else {
            return Err(format!(
                "--pair {text}: expected an index K ({}) or two body names NAME1,NAME2",
                self.pair_range()
            ));
        };
        let i = self.body_named(first.trim())?;
        let j = self.body_named(second.trim())?;
        self.pairs
            .iter()
            .position(|&p| p == (i, j) || p == (j, i))
            .ok_or_else(|| {
                format!(
                    "--pair {text}: {} and {} are not a pair the scene checks \
                     (its {} pairs: {})",
                    self.body_label(i),
                    self.body_label(j),
                    self.pairs.len(),
                    self.pair_range()
                )
            })
    }

    /// Puts pair `k` in focus (its bodies become A and B); the other pairs follow in
    /// their order, wrapping round (as Python's `run(pair=k)` takes them).
    pub fn focus_pair(&mut self, k: usize) -> Result<(), String> {
        self.check_pair_index(k)?;
        self.pairs.rotate_left(k);
        Ok(())
    }

    /// "0..N-1", the valid pair indices, for messages.
    fn pair_range(&self) -> String {
        format!("0..{}", self.pairs.len().saturating_sub(1))
    }

    fn check_pair_index(&self, k: usize) -> Result<(), String> {
        if k < self.pairs.len() {
            return Ok(());
        }
        Err(format!(
            "pair {k}: the scene has {} pair{} ({})",
            self.pairs.len(),
            if self.pairs.len() == 1 { "" } else { "s" },
            self.pair_range()
        ))
    }

    /// The body whose name is `name`, or a refusal listing the names there are.
    fn body_named(&self, name: &str) -> Result<usize, String> {
        if let Some(i) = self
            .bodies
            .iter()
            .position(|b| b.name.as_deref() == Some(name))
        {
            return Ok(i);
        }
        let names: Vec<&str> = self
            .bodies
            .iter()
            .filter_map(|b| b.name.as_deref())
            .collect();
        Err(if names.is_empty() {
            format!(
                "--pair: no body is named '{name}' (the scene's bodies have no names: \
                 pick the pair by its index, {})",
                self.pair_range()
            )
        } else {
            format!(
                "--pair: no body is named '{name}' (the bodies: {})",
                names.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::Scene;
    use std::path::Path;

    fn three_named() -> Scene {
        Scene::parse(
            Path::new("t.ron"),
            r#"Scene(version: 2, name: "t", bodies: [
                Body(name: Some("left"), shape: Sphere(radius: 1.0)),
                Body(name: Some("right"), shape: Sphere(radius: 1.0), translation: (3.0, 0.0, 0.0)),
                Body(name: Some("top"), shape: Sphere(radius: 1.0), translation: (0.0, 3.0, 0.0))],
                pairs: [(0, 1), (1, 2)], algorithms: ["gjk"])"#,
        )
        .unwrap()
    }

    #[test]
    fn a_pair_is_found_by_index_or_by_names_in_either_order() {
        let scene = three_named();
        assert_eq!(scene.find_pair("1"), Ok(1));
        assert_eq!(scene.find_pair("top,right"), Ok(1));
        assert_eq!(scene.find_pair("left, right"), Ok(0));
    }

    #[test]
    fn bad_pairs_are_refused_with_what_is_valid() {
        let scene = three_named();
        let out_of_range = scene.find_pair("2").unwrap_err();
        assert!(out_of_range.contains("0..1"), "{out_of_range}");
        let unknown = scene.find_pair("left,nose").unwrap_err();
        assert!(unknown.contains("left, right, top"), "{unknown}");
        let unchecked = scene.find_pair("left,top").unwrap_err();
        assert!(unchecked.contains("not a pair"), "{unchecked}");
    }

    #[test]
    fn focusing_a_pair_makes_its_bodies_a_and_b() {
        let mut scene = three_named();
        scene.focus_pair(1).unwrap();
        assert_eq!(scene.pairs, vec![(1, 2), (0, 1)]);
        assert_eq!(scene.a().name.as_deref(), Some("right"));
        assert!(scene.focus_pair(5).is_err());
    }
}
