using IntegrationService.Storage;

namespace IntegrationService.Kv;

/// <summary>
/// A <c>/v0/entity</c> request as bound before any filter or handler runs: the key (<c>?id=</c>), the
/// store (<c>?storage=</c>; an unknown name throws, a 400) and, for a PUT, the value (the body). A bad
/// key or body is carried as <see cref="Problem"/> (400, 413) rather than thrown, so the node that
/// received the request refuses it and the cluster's routing never forwards it.
/// </summary>
public sealed class KvEntityRequest
{
    private KvEntityRequest(string key, IKvStore? store, byte[]? value, IResult? problem)
    {
        Key = key;
        Store = store!;
        Value = value;
        Problem = problem;
    }

    /// <summary>The key; empty when <see cref="Problem"/> is set.</summary>
    public string Key { get; }

    /// <summary>The store <c>?storage=</c> selects (<c>Kv:Default</c> without it).</summary>
    public IKvStore Store { get; }

    /// <summary>The value of a PUT; null for GET and DELETE.</summary>
    public byte[]? Value { get; }

    /// <summary>The answer to a request that is not valid (400, 413); null for a valid one.</summary>
    public IResult? Problem { get; }

    /// <summary>Minimal APIs' binding hook: called once per request, before the endpoint's filters.</summary>
    public static async ValueTask<KvEntityRequest?> BindAsync(HttpContext context)
    {
        var request = context.Request;
        if (!KvEndpoints.TryReadKey(request.Query["id"], out var key, out var problem)) return new(key, null, null, problem);
        var store = context.RequestServices.GetRequiredService<StorageRegistry>().Kv(request.Query["storage"]);
        if (!HttpMethods.IsPut(request.Method)) return new(key, store, null, null);
        var (value, tooLarge) = await KvValueBody.ReadAsync(request);
        return new(key, store, value, tooLarge);
    }
}
