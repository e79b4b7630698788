//! The face adjacency of a closed triangulated surface, found without hashing: each
//! vertex lists the edges leaving it (a compressed table filled by counting), so an
//! edge's reverse is looked up among a handful of entries. It is also the closedness
//! test: every directed edge is used exactly once and its reverse exactly once.

use super::check::HullDefect;

/// Faces over vertex indices below `vertex_count`, each with the face across each of
/// its edges (edge `i` runs from `v[i]` to `v[(i + 1) % 3]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    pub across: Vec<[usize; 3]>,
}

/// The adjacency of `triangles`, or the first edge (in the triangles' order) that is not
/// used exactly once in each direction.
pub fn closed_surface(
    triangles: &[[usize; 3]],
    vertex_count: usize,
) -> Result<Surface, HullDefect> {
    if vertex_count > u32::MAX as usize || triangles.len() > u32::MAX as usize {
        return closed_surface_wide(triangles);
    }
    // Edges leaving each vertex, as (to, face, slot), grouped by their first vertex.
    let mut start = vec![0u32; vertex_count + 1];
    for &v in triangles.iter().flatten() {
        start[v + 1] += 1;
    }
    for i in 0..vertex_count {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    // (to, face), 32 bits each: the table is read at random, so it is kept small.
    let mut leaving = vec![(0u32, 0u32); triangles.len() * 3];
    for (f, t) in triangles.iter().enumerate() {
        for i in 0..3 {
            let slot = &mut fill[t[i]];
            leaving[*slot as usize] = (t[(i + 1) % 3] as u32, f as u32);
            *slot += 1;
        }
    }
    let from = |v: usize| &leaving[start[v] as usize..start[v + 1] as usize];
    let mut across = vec![[usize::MAX; 3]; triangles.len()];
    for (f, t) in triangles.iter().enumerate() {
        for i in 0..3 {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            let forward = from(a).iter().filter(|e| e.0 as usize == b).count();
            let mut backward = from(b).iter().filter(|e| e.0 as usize == a);
            match (forward, backward.next(), backward.next()) {
                (1, Some(&(_, g)), None) => across[f][i] = g as usize,
                _ => return Err(HullDefect::OpenSurface { from: a, to: b }),
            }
        }
    }
    Ok(Surface { across })
}

/// The same test with a hash map, for surfaces too big for 32-bit indices.
fn closed_surface_wide(triangles: &[[usize; 3]]) -> Result<Surface, HullDefect> {
    let mut directed: std::collections::HashMap<(usize, usize), (u32, usize)> =
        std::collections::HashMap::with_capacity(triangles.len() * 3);
    for (f, t) in triangles.iter().enumerate() {
        for i in 0..3 {
            let entry = directed.entry((t[i], t[(i + 1) % 3])).or_insert((0, f));
            entry.0 += 1;
        }
    }
    let mut across = vec![[usize::MAX; 3]; triangles.len()];
    for (f, t) in triangles.iter().enumerate() {
        for i in 0..3 {
            let (from, to) = (t[i], t[(i + 1) % 3]);
            match (directed[&(from, to)], directed.get(&(to, from))) {
                ((1, _), Some(&(1, g))) => across[f][i] = g,
                _ => return Err(HullDefect::OpenSurface { from, to }),
            }
        }
    }
    Ok(Surface { across })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tetrahedron_closes_and_a_missing_face_is_named() {
        let faces = [[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]];
        let surface = closed_surface(&faces, 4).unwrap();
        assert_eq!(surface.across[0], [1, 2, 3]);
        assert_eq!(
            closed_surface(&faces[..3], 4),
            Err(HullDefect::OpenSurface { from: 2, to: 0 })
        );
        let doubled = [faces.as_slice(), &faces[..1]].concat();
        assert!(closed_surface(&doubled, 4).is_err());
    }
}
