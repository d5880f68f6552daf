namespace IntegrationService.Http;

/// <summary>Endpoint metadata: the route selects its architecture with <c>?storage=</c>.</summary>
public sealed class ReadsStorageParameter
{
    public static readonly ReadsStorageParameter Instance = new(kv: false);

    /// <summary>The key-value routes: without <c>?storage=</c> they use <c>Kv:Default</c>, not <c>Storage:Default</c>.</summary>
    public static readonly ReadsStorageParameter KeyValue = new(kv: true);

    private ReadsStorageParameter(bool kv) => UsesKvDefault = kv;

    public bool UsesKvDefault { get; }
}
