//! The pairs MuJoCo's collision filter lets through, counted before they are listed: a
//! model of 20,000 free bodies passes 2·10⁸ of them, which no scene should hold, and
//! the count (by groups of geoms, not pair by pair) says so in time linear in the
//! model. A model within [`MAX_PAIRS`] has its pairs listed by walking, for each geom,
//! only the weld bodies its filter can reach; the time is the pairs' number plus the
//! geoms'.

use std::collections::{HashMap, HashSet};

/// The most geom pairs a model's scene holds. Each pair is ordered by its certified
/// signed distance when the model is read (GJK, EPA when overlapping: 44,850 pairs of
/// spheres, boxes, capsules and hulls took 19 ms), and the scene stays near 2 MB;
/// MuJoCo's own example models (a dog, a humanoid in a scene) pass far fewer.
pub const MAX_PAIRS: u64 = 50_000;

/// What MuJoCo's filter reads of each collision geom and body.
pub(super) struct Filter {
    /// Per geom: its body, its weld body, and its `(contype, conaffinity)`.
    pub(super) geom_body: Vec<usize>,
    pub(super) geom_weld: Vec<usize>,
    pub(super) geom_key: Vec<(u32, u32)>,
    /// Per body: its weld body, and the weld body of its weld body's parent (the
    /// world's is the world).
    pub(super) body_weld: Vec<usize>,
    pub(super) weld_parent: Vec<usize>,
    /// `<exclude>`d body pairs, `(low, high)`.
    pub(super) excluded: HashSet<(usize, usize)>,
    /// Explicit `<pair>`s, `(low, high)` geom indices, in the file's order.
    pub(super) explicit: Vec<(usize, usize)>,
}

/// The geoms of one weld body with one filter key: its weld body and the geoms.
type Run = (usize, Vec<usize>);

/// Whether two geoms' `(contype, conaffinity)` let MuJoCo test them.
fn compatible((ta, aa): (u32, u32), (tb, ab): (u32, u32)) -> bool {
    ta & ab != 0 || tb & aa != 0
}

/// Unordered pairs between two groups of counts by key (`same`: the group with itself).
fn cross(a: &HashMap<(u32, u32), u64>, b: &HashMap<(u32, u32), u64>, same: bool) -> u64 {
    let mut total = 0;
    for (ka, na) in a {
        for (kb, nb) in b {
            if compatible(*ka, *kb) {
                total += if same && ka == kb {
                    na * na.saturating_sub(1)
                } else {
                    na * nb
                };
            }
        }
    }
    // Within one group every unordered pair of keys was met twice.
    if same {
        total / 2
    } else {
        total
    }
}

impl Filter {
    /// MuJoCo's filter on geoms `i` and `j` (explicit pairs aside): different weld
    /// bodies, not a weld body and its parent's (neither the world), compatible
    /// `contype`/`conaffinity`, no `<exclude>` of their bodies.
    pub(super) fn passes(&self, i: usize, j: usize) -> bool {
        let (wi, wj) = (self.geom_weld[i], self.geom_weld[j]);
        !self.welded(wi, wj)
            && compatible(self.geom_key[i], self.geom_key[j])
            && !self.is_excluded(self.geom_body[i], self.geom_body[j])
    }

    /// Two weld bodies MuJoCo never tests against each other: one, or a body and its
    /// parent's (the world aside).
    fn welded(&self, wi: usize, wj: usize) -> bool {
        wi == wj
            || (wi != 0 && wj != 0 && (self.weld_parent[wi] == wj || self.weld_parent[wj] == wi))
    }

    fn is_excluded(&self, a: usize, b: usize) -> bool {
        !self.excluded.is_empty() && self.excluded.contains(&(a.min(b), a.max(b)))
    }

    /// How many pairs MuJoCo tests: the explicit ones, and every other pair the filter
    /// passes. Counted by groups (geoms by weld body and by body, per filter key), in
    /// time linear in the geoms, however many pairs there are.
    pub(super) fn count(&self) -> u64 {
        let mut all = HashMap::new();
        let mut by_weld: HashMap<usize, HashMap<(u32, u32), u64>> = HashMap::new();
        let mut by_body: HashMap<usize, HashMap<(u32, u32), u64>> = HashMap::new();
        for g in 0..self.geom_key.len() {
            let key = self.geom_key[g];
            *all.entry(key).or_insert(0u64) += 1;
            *by_weld
                .entry(self.geom_weld[g])
                .or_default()
                .entry(key)
                .or_insert(0) += 1;
            *by_body
                .entry(self.geom_body[g])
                .or_default()
                .entry(key)
                .or_insert(0) += 1;
        }
        let mut passing = cross(&all, &all, true);
        for (w, counts) in &by_weld {
            passing -= cross(counts, counts, true);
            let parent = self.weld_parent[*w];
            if *w != 0 && parent != 0 && parent != *w {
                if let Some(p) = by_weld.get(&parent) {
                    passing -= cross(counts, p, false);
                }
            }
        }
        for &(a, b) in &self.excluded {
            let (Some(ca), Some(cb)) = (by_body.get(&a), by_body.get(&b)) else {
                continue;
            };
            // Already left out by the weld rules: not subtracted twice.
            if !self.welded(self.body_weld[a], self.body_weld[b]) {
                passing -= cross(ca, cb, false);
            }
        }
        let extra = self
            .explicit_unique()
            .iter()
            .filter(|(i, j)| !self.passes(*i, *j))
            .count() as u64;
        passing + extra
    }

    /// The explicit pairs, each once, in the file's order.
    fn explicit_unique(&self) -> Vec<(usize, usize)> {
        let mut seen = HashSet::new();
        self.explicit
            .iter()
            .copied()
            .filter(|p| seen.insert(*p))
            .collect()
    }

    /// Every pair MuJoCo tests, `(low, high)`: the explicit ones, then the filter's.
    /// For each geom only the weld bodies after its own are walked, grouped by key, so
    /// geoms of one weld body are skipped as a block: the time is the pairs found plus
    /// the geoms times the keys, not the square of the geoms.
    pub(super) fn list(&self) -> Vec<(usize, usize)> {
        let explicit = self.explicit_unique();
        let listed: HashSet<(usize, usize)> = explicit.iter().copied().collect();
        let mut pairs = explicit;
        // Per key: the geoms as runs of one weld body, by weld body.
        let mut runs: HashMap<(u32, u32), Vec<Run>> = HashMap::new();
        let mut order: Vec<usize> = (0..self.geom_key.len()).collect();
        order.sort_by_key(|&g| (self.geom_weld[g], g));
        for g in order {
            let list = runs.entry(self.geom_key[g]).or_default();
            match list.last_mut() {
                Some((w, geoms)) if *w == self.geom_weld[g] => geoms.push(g),
                _ => list.push((self.geom_weld[g], vec![g])),
            }
        }
        let keys: Vec<(u32, u32)> = runs.keys().copied().collect();
        for i in 0..self.geom_key.len() {
            let wi = self.geom_weld[i];
            for key in keys.iter().filter(|k| compatible(self.geom_key[i], **k)) {
                let list = &runs[key];
                let start = list.partition_point(|(w, _)| *w <= wi);
                for (wj, geoms) in &list[start..] {
                    if self.welded(wi, *wj) {
                        continue;
                    }
                    for &j in geoms {
                        let pair = (i.min(j), i.max(j));
                        if !self.is_excluded(self.geom_body[i], self.geom_body[j])
                            && !listed.contains(&pair)
                        {
                            pairs.push(pair);
                        }
                    }
                }
            }
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A random model's filter: bodies in a tree (some jointed), geoms with small
    /// contype/conaffinity bits, a few excludes and explicit pairs.
    fn random_filter(rng: &mut SplitMix64) -> Filter {
        let bodies = 1 + rng.index(12);
        let (mut parent, mut weld) = (vec![0], vec![0]);
        for b in 1..bodies {
            let p = rng.index(b);
            parent.push(p);
            weld.push(if rng.index(3) > 0 { b } else { weld[p] });
        }
        let weld_parent = (0..bodies).map(|b| weld[parent[b]]).collect();
        let geoms = rng.index(30);
        let geom_body: Vec<usize> = (0..geoms).map(|_| rng.index(bodies)).collect();
        let geom_key = (0..geoms)
            .map(|_| (rng.index(4) as u32, rng.index(4) as u32))
            .collect();
        let pick = |rng: &mut SplitMix64, n: usize| (rng.index(n), rng.index(n));
        let excluded = (0..rng.index(4))
            .map(|_| pick(rng, bodies))
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        let explicit = if geoms > 1 {
            (0..rng.index(4))
                .map(|_| pick(rng, geoms))
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect()
        } else {
            Vec::new()
        };
        Filter {
            geom_weld: geom_body.iter().map(|b| weld[*b]).collect(),
            geom_body,
            geom_key,
            body_weld: weld,
            weld_parent,
            excluded,
            explicit,
        }
    }

    /// The count by groups, the listing by weld runs and the filter on every two geoms
    /// agree, on 2000 random models.
    #[test]
    fn the_count_and_the_list_are_the_filter_pair_by_pair() {
        let mut rng = SplitMix64::new(43);
        for _ in 0..2000 {
            let filter = random_filter(&mut rng);
            let n = filter.geom_key.len();
            let mut expected: Vec<(usize, usize)> = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .filter(|&(i, j)| filter.passes(i, j) || filter.explicit.contains(&(i, j)))
                .collect();
            let mut listed = filter.list();
            assert_eq!(filter.count(), listed.len() as u64);
            expected.sort();
            listed.sort();
            assert_eq!(listed, expected);
        }
    }
}
