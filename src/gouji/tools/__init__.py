"""Tools around the engine for engineers and researchers: the arena (duplicate-deal
evaluation), the benchmark, Ray clusters, statistics and progress bars."""
