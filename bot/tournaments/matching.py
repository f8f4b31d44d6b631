"""Pairing people with as few unwanted pairs as possible, exactly: Swiss pairing's search.

A maximum matching (Edmonds' blossom algorithm) of the graph of acceptable pairs tells how many
unwanted pairs any pairing must use at the least (people left unmatched pair among themselves,
unwantedly). Pairing top-down, each time taking the first preferred partner that keeps that
least, never paints itself into a corner, and stays polynomial for any field.
"""

from __future__ import annotations

from collections import deque


def _max_matching(n: int, adj: list[set[int]], match: list[int] | None = None) -> list[int]:
    """Edmonds' blossom algorithm: a maximum matching of a general graph on 0..n-1.
    `match` (partner or -1) is a matching to grow from; a new list is returned."""
    match = [-1] * n if match is None else list(match)
    for v in range(n):  # a greedy start leaves few augmenting searches
        if match[v] == -1:
            for w in adj[v]:
                if match[w] == -1:
                    match[v], match[w] = w, v
                    break

    def augment(root: int) -> bool:
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    b = lca(v, to)
                    blossom = [False] * n
                    mark(v, b, to, blossom)
                    mark(to, b, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = b
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        while to != -1:  # flip the path back to the root
                            pv = parent[to]
                            ppv = match[pv]
                            match[to], match[pv] = pv, to
                            to = ppv
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False

    for v in range(n):
        if match[v] == -1:
            augment(v)
    return match


class Matcher:
    """Perfect pairings of a set of entrants that use as few `bad` pairs as possible."""

    def __init__(self, people: list[str], bad) -> None:
        self.people = people
        self.index = {p: i for i, p in enumerate(people)}
        n = len(people)
        self.adj = [{j for j in range(n) if j != i and not bad(people[i], people[j])}
                    for i in range(n)]

    def _sub(self, members: list[int], start: dict[int, int] | None = None) -> dict[int, int]:
        local = {g: i for i, g in enumerate(members)}
        adj = [{local[w] for w in self.adj[g] if w in local} for g in members]
        match = None
        if start:
            match = [local.get(start.get(g, -1), -1) for g in members]
        m = _max_matching(len(members), adj, match)
        return {members[i]: members[j] for i, j in enumerate(m) if j != -1}

    def shortfall(self, people: list[str]) -> int:
        """How many bad pairs any pairing of `people` (an even count) must use, at least."""
        members = [self.index[p] for p in people]
        return len(members) // 2 - len(self._sub(members)) // 2

    def pair(self, ranked: list[str], prefer) -> list[tuple[str, str]]:
        """Pair `ranked` (best first) top-down: each time the best unpaired entrant takes the
        first of `prefer(a, rest)` that keeps the round's bad pairs at the fewest possible."""
        rest = [self.index[p] for p in ranked]
        match = self._sub(rest)
        need = len(rest) // 2 - len(match) // 2
        pairs = []
        while rest:
            a, others = rest[0], rest[1:]
            for b in prefer(self.people[a], [self.people[o] for o in others]):
                b = self.index[b]
                cost = 0 if b in self.adj[a] else 1
                left = [o for o in others if o != b]
                if match.get(a) == b:
                    trial = {k: v for k, v in match.items() if k not in (a, b)}
                else:
                    seed = {k: v for k, v in match.items() if k not in (a, b) and v not in (a, b)}
                    trial = self._sub(left, seed)
                left_need = len(left) // 2 - len(trial) // 2
                if cost + left_need == need:
                    pairs.append((self.people[a], self.people[b]))
                    rest, match, need = left, trial, left_need
                    break
            else:  # cannot happen: some partner always keeps the fewest
                raise AssertionError("no partner keeps the fewest bad pairs")
        return pairs
