//! A height field in parry's layout: a grid of heights over the x–z plane, `rows` along
//! z and `cols` along x, spanning `[-0.5, 0.5]` in both before its per-axis `scale`,
//! each cell cut into two triangles (parry's `HeightField::triangles_at`: corners
//! `p00, p10, p01` and `p10, p11, p01`, or `p00, p10, p11` and `p00, p11, p01` for a
//! cell subdivided as a zigzag), cells or triangles removed by their status bits.
//! It is queried as the triangle mesh it makes, each triangle numbered as parry
//! numbers it, so a sub-pair names the triangle a parry user sees.

use glam::DVec3;

use super::trimesh::{TriMesh, TriMeshError};

/// parry's `HeightFieldCellStatus` bits.
pub const ZIGZAG_SUBDIVISION: u8 = 0b001;
pub const LEFT_TRIANGLE_REMOVED: u8 = 0b010;
pub const RIGHT_TRIANGLE_REMOVED: u8 = 0b100;

/// Why a grid is not a height field; each names the row, column or cell at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HeightFieldError {
    #[error("a height field needs at least 2 rows and 2 columns of heights (got {rows} × {cols})")]
    TooSmall { rows: usize, cols: usize },
    #[error("row {row} has {len} heights where row 0 has {expected}")]
    Ragged {
        row: usize,
        len: usize,
        expected: usize,
    },
    #[error("the height at row {row}, column {col} is not finite ({value})")]
    NonFinite { row: usize, col: usize, value: f64 },
    #[error("the scale ({}, {}, {}) is not finite and positive on every axis", scale[0], scale[1], scale[2])]
    BadScale { scale: [f64; 3] },
    #[error("{got} cell statuses for a grid of {expected} cells")]
    StatusCount { got: usize, expected: usize },
    #[error("every triangle of the height field is removed")]
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HeightField {
    /// Row-major: row `i` (along z), column `j` (along x) at `i * cols + j`.
    heights: Vec<f64>,
    rows: usize,
    cols: usize,
    scale: DVec3,
    /// One status per cell, row-major over `(rows - 1) × (cols - 1)`.
    status: Vec<u8>,
}

impl HeightField {
    /// A height field of `rows` of heights (each row one z, its entries along x).
    pub fn new(rows: Vec<Vec<f64>>, scale: DVec3) -> Result<Self, HeightFieldError> {
        let (n, m) = (rows.len(), rows.first().map_or(0, Vec::len));
        if n < 2 || m < 2 {
            return Err(HeightFieldError::TooSmall { rows: n, cols: m });
        }
        if !(scale.is_finite() && scale.min_element() > 0.0) {
            return Err(HeightFieldError::BadScale {
                scale: scale.to_array(),
            });
        }
        let mut heights = Vec::with_capacity(n * m);
        for (row, r) in rows.iter().enumerate() {
            if r.len() != m {
                return Err(HeightFieldError::Ragged {
                    row,
                    len: r.len(),
                    expected: m,
                });
            }
            if let Some((col, &value)) = r.iter().enumerate().find(|(_, h)| !h.is_finite()) {
                return Err(HeightFieldError::NonFinite { row, col, value });
            }
            heights.extend_from_slice(r);
        }
        Ok(Self {
            heights,
            rows: n,
            cols: m,
            scale,
            status: vec![0; (n - 1) * (m - 1)],
        })
    }

    /// The same field with each cell's status (parry's bits), row-major.
    pub fn with_status(mut self, status: Vec<u8>) -> Result<Self, HeightFieldError> {
        if status.len() != self.status.len() {
            return Err(HeightFieldError::StatusCount {
                got: status.len(),
                expected: self.status.len(),
            });
        }
        self.status = status;
        Ok(self)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn scale(&self) -> DVec3 {
        self.scale
    }

    pub fn height(&self, i: usize, j: usize) -> f64 {
        self.heights[i * self.cols + j]
    }

    /// parry's number of triangle `left` or right of cell `(i, j)`.
    pub fn triangle_id(&self, i: usize, j: usize, left: bool) -> u32 {
        let cells = (self.rows - 1) * (self.cols - 1);
        let id = j * (self.rows - 1) + i;
        (if left { id } else { id + cells }) as u32
    }

    /// The two triangles of cell `(i, j)`, as parry makes them (`None` where removed).
    pub fn triangles_at(&self, i: usize, j: usize) -> [Option<[DVec3; 3]>; 2] {
        let status = self.status[i * (self.cols - 1) + j];
        if status & (LEFT_TRIANGLE_REMOVED | RIGHT_TRIANGLE_REMOVED)
            == LEFT_TRIANGLE_REMOVED | RIGHT_TRIANGLE_REMOVED
        {
            return [None, None];
        }
        let cell_width = 1.0 / (self.cols as f64 - 1.0);
        let cell_height = 1.0 / (self.rows as f64 - 1.0);
        let z0 = -0.5 + cell_height * (i as f64);
        let z1 = -0.5 + cell_height * ((i + 1) as f64);
        let x0 = -0.5 + cell_width * (j as f64);
        let x1 = -0.5 + cell_width * ((j + 1) as f64);
        let p00 = DVec3::new(x0, self.height(i, j), z0) * self.scale;
        let p10 = DVec3::new(x0, self.height(i + 1, j), z1) * self.scale;
        let p01 = DVec3::new(x1, self.height(i, j + 1), z0) * self.scale;
        let p11 = DVec3::new(x1, self.height(i + 1, j + 1), z1) * self.scale;
        let (left, right) = if status & ZIGZAG_SUBDIVISION != 0 {
            ([p00, p10, p11], [p00, p11, p01])
        } else {
            ([p00, p10, p01], [p10, p11, p01])
        };
        [
            (status & LEFT_TRIANGLE_REMOVED == 0).then_some(left),
            (status & RIGHT_TRIANGLE_REMOVED == 0).then_some(right),
        ]
    }

    /// The field as a triangle mesh, with parry's number of each of its triangles.
    pub fn to_mesh(&self) -> Result<(TriMesh, Vec<u32>), HeightFieldError> {
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        let mut ids = Vec::new();
        for j in 0..self.cols - 1 {
            for i in 0..self.rows - 1 {
                for (k, corners) in self.triangles_at(i, j).into_iter().enumerate() {
                    let Some(corners) = corners else { continue };
                    let base = vertices.len() as u32;
                    vertices.extend_from_slice(&corners);
                    triangles.push([base, base + 1, base + 2]);
                    ids.push(self.triangle_id(i, j, k == 0));
                }
            }
        }
        // Shared corners are computed alike in every cell, so the mesh welds them.
        let mesh = TriMesh::new(vertices, triangles).map_err(|e| match e {
            TriMeshError::NoTriangles => HeightFieldError::Empty,
            other => unreachable!("a height field's triangles are finite and manifold: {other}"),
        })?;
        Ok((mesh, ids))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composite::midphase::{composite_convex_distance, CompositeTree};
    use crate::composite::Pieces;
    use crate::pose::RelativePose;
    use crate::shape::{Shape, Sphere};
    use crate::solver::{Algorithm, DirectionRule, Method, SolverSettings};

    fn grid() -> Vec<Vec<f64>> {
        (0..5)
            .map(|i| (0..6).map(|j| ((i * 7 + j * 3) % 5) as f64 * 0.1).collect())
            .collect()
    }

    fn parry_field(
        rows: &[Vec<f64>],
        scale: DVec3,
        status: &[u8],
    ) -> parry3d_f64::shape::HeightField {
        use parry3d_f64::shape::HeightFieldCellStatus as S;
        let (n, m) = (rows.len(), rows[0].len());
        let heights = parry3d_f64::utils::Array2::from_fn(n, m, |i, j| rows[i][j]);
        let mut field = parry3d_f64::shape::HeightField::new(
            heights,
            parry3d_f64::math::Vector::new(scale.x, scale.y, scale.z),
        );
        for i in 0..n - 1 {
            for j in 0..m - 1 {
                field.cells_statuses_mut()[(i, j)] = S::from_bits_truncate(status[i * (m - 1) + j]);
            }
        }
        field
    }

    /// Every triangle, bit for bit, and its number, as parry's own height field has them.
    #[test]
    fn triangles_and_numbers_are_parrys() {
        let scale = DVec3::new(4.0, 1.5, 3.0);
        let status: Vec<u8> = (0..20)
            .map(|c| {
                [
                    0,
                    ZIGZAG_SUBDIVISION,
                    LEFT_TRIANGLE_REMOVED,
                    RIGHT_TRIANGLE_REMOVED | ZIGZAG_SUBDIVISION,
                ][c % 4]
            })
            .collect();
        let ours = HeightField::new(grid(), scale)
            .unwrap()
            .with_status(status.clone())
            .unwrap();
        let theirs = parry_field(&grid(), scale, &status);
        let to =
            |t: parry3d_f64::shape::Triangle| [t.a, t.b, t.c].map(|p| DVec3::new(p.x, p.y, p.z));
        for i in 0..4 {
            for j in 0..5 {
                let (l, r) = theirs.triangles_at(i, j);
                assert_eq!(
                    ours.triangles_at(i, j),
                    [l.map(to), r.map(to)],
                    "cell ({i}, {j})"
                );
            }
        }
        let ours_field = ours.clone();
        let (mesh, ids) = ours.to_mesh().unwrap();
        assert_eq!(mesh.triangle_count(), ids.len());
        // Ball distances and the triangle named agree with parry's height field.
        let tree = CompositeTree::new(Pieces::Triangles(mesh));
        let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
        for c in [DVec3::new(0.3, 1.2, -0.4), DVec3::new(-1.5, 0.9, 1.1)] {
            let ours = composite_convex_distance(
                &tree,
                &Shape::Sphere(Sphere::new(0.2).unwrap()),
                RelativePose::from_matrix(glam::DMat3::IDENTITY, c),
                gjk,
                SolverSettings::default(),
                false,
            );
            // parry answers no distance query on a height field (`Unsupported`): its
            // own triangles, each against the ball by its closed form, are the oracle.
            let ball = parry3d_f64::shape::Ball::new(0.2);
            let at = parry3d_f64::math::Pose::translation(c.x, c.y, c.z);
            let mut best = (f64::INFINITY, u32::MAX);
            for i in 0..4 {
                for j in 0..5 {
                    let (l, r) = theirs.triangles_at(i, j);
                    for (k, t) in [l, r].into_iter().enumerate() {
                        let Some(t) = t else { continue };
                        let d = parry3d_f64::query::distance(
                            &parry3d_f64::math::Pose::identity(),
                            &t,
                            &at,
                            &ball,
                        )
                        .unwrap()
                        .distance;
                        if d < best.0 {
                            best = (d, ours_field.triangle_id(i, j, k == 0));
                        }
                    }
                }
            }
            assert!(
                ours.lower <= best.0 + 1e-9 && best.0 <= ours.upper + 1e-9,
                "{c}: [{}, {}] vs {}",
                ours.lower,
                ours.upper,
                best.0
            );
            let named = ids[ours.sub_pairs[ours.nearest.unwrap()].piece as usize];
            assert_eq!(named, best.1, "{c}");
        }
    }

    #[test]
    fn bad_grids_are_refused_naming_the_place() {
        let scale = DVec3::ONE;
        assert_eq!(
            HeightField::new(vec![vec![0.0, 1.0]], scale),
            Err(HeightFieldError::TooSmall { rows: 1, cols: 2 })
        );
        let e = HeightField::new(vec![vec![0.0, 1.0], vec![0.0]], scale).unwrap_err();
        assert_eq!(e.to_string(), "row 1 has 1 heights where row 0 has 2");
        let e = HeightField::new(vec![vec![0.0, 1.0], vec![0.0, f64::NAN]], scale).unwrap_err();
        assert!(matches!(
            e,
            HeightFieldError::NonFinite { row: 1, col: 1, .. }
        ));
        assert!(HeightField::new(grid(), DVec3::new(1.0, 0.0, 1.0)).is_err());
        let all_gone = HeightField::new(grid(), scale)
            .unwrap()
            .with_status(vec![LEFT_TRIANGLE_REMOVED | RIGHT_TRIANGLE_REMOVED; 20])
            .unwrap();
        assert_eq!(all_gone.to_mesh().unwrap_err(), HeightFieldError::Empty);
        assert!(HeightField::new(grid(), scale)
            .unwrap()
            .with_status(vec![0; 3])
            .is_err());
    }

    #[test]
    fn neighbouring_cells_share_their_edges() {
        let (mesh, _) = HeightField::new(grid(), DVec3::new(2.0, 1.0, 2.0))
            .unwrap()
            .to_mesh()
            .unwrap();
        let interior = (0..mesh.triangle_count())
            .flat_map(|t| mesh.across(t))
            .filter(|a| matches!(a, crate::composite::Across::Triangle { .. }))
            .count();
        // 4 × 5 cells: 40 triangles, 3 edges each, minus the 2 × (4 + 5) rim edges.
        assert_eq!(interior, 40 * 3 - 18);
    }
}
