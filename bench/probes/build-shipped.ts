// Builds bench/.shipped/ alone (what a probe that does not import bench/lib/shipped.ts loads, e.g. call-ab.ts).
export {};
await import('../lib/shipped-build');
