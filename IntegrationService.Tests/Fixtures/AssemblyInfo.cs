// Outage tests stop shared servers and contract tests page through shared tables: running
// test classes one at a time keeps every assertion about them deterministic.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
