//! The order lessons are taught in (`scenes/lessons/course.ron`): a few paths through
//! the lessons (a 90-minute lecture, an exercise session, ...), each a list of lesson
//! files. The viewer's lesson menu and the docs follow it; one file holds the order so
//! that they cannot drift apart.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::SceneError;

/// The course file's name inside the lessons folder.
pub const COURSE_FILE: &str = "course.ron";

/// Paths through the lessons, in the order they are taught.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Course {
    pub paths: Vec<CoursePath>,
}

/// One path: a name ("Lecture, 90 minutes"), what it is for, and its lessons' file
/// stems (`03_gjk_two_boxes`) in order.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CoursePath {
    pub name: String,
    #[serde(default)]
    pub about: String,
    pub lessons: Vec<String>,
}

impl Course {
    /// Reads `dir/course.ron` and checks that every lesson it names is a file of `dir`
    /// and that no lesson is named twice.
    pub fn load(dir: &Path) -> Result<Course, SceneError> {
        let path = dir.join(COURSE_FILE);
        let text = std::fs::read_to_string(&path).map_err(|source| SceneError::Read {
            path: path.clone(),
            source,
        })?;
        let course: Course = ron::from_str(&text).map_err(|e| SceneError::Syntax {
            path: path.clone(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        let invalid = |message: String| SceneError::Invalid {
            path: path.clone(),
            message,
        };
        let mut seen = std::collections::HashSet::new();
        for p in &course.paths {
            for stem in &p.lessons {
                if !seen.insert(stem.as_str()) {
                    return Err(invalid(format!(
                        "path \"{}\": lesson {stem} is named twice in the course",
                        p.name
                    )));
                }
                if !dir.join(format!("{stem}.ron")).is_file() {
                    return Err(invalid(format!(
                        "path \"{}\": no lesson file {stem}.ron in {}",
                        p.name,
                        dir.display()
                    )));
                }
            }
        }
        Ok(course)
    }

    /// Every lesson file of the course, path by path, in order.
    pub fn files(&self, dir: &Path) -> Vec<(String, PathBuf)> {
        self.paths
            .iter()
            .flat_map(|p| {
                p.lessons
                    .iter()
                    .map(move |stem| (p.name.clone(), dir.join(format!("{stem}.ron"))))
            })
            .collect()
    }
}
