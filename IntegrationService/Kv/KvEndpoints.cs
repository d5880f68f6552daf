using System.Text;
using IntegrationService.Http;
using IntegrationService.Kv.Cluster;
using IntegrationService.Storage;

namespace IntegrationService.Kv;

/// <summary>
/// The key-value API of the highload-dht studies, with their status codes: <c>PUT /v0/entity?id=</c>
/// stores the raw body (201), <c>GET</c> returns it byte for byte (200, or 404), <c>DELETE</c> removes
/// it (202, also for an absent key); an empty or missing id is a 400, another method a 405, an unknown
/// path under <c>/v0/</c> a 400. <c>?storage=</c> selects the architecture, else <c>Kv:Default</c>.
/// In a sharded cluster the group's <see cref="KvOwnerRouting"/> filter forwards a key another node
/// owns to it, after the request has been bound and checked here (<see cref="KvEntityRequest"/>: a
/// bad request is refused by the node that received it); the handler only serves local keys.
/// </summary>
public static class KvEndpoints
{
    private const string Allowed = "GET, PUT, DELETE";

    public static void Map(IEndpointRouteBuilder app)
    {
        var registry = app.ServiceProvider.GetRequiredService<StorageRegistry>();
        var cluster = app.ServiceProvider.GetRequiredService<KvCluster>();
        var names = string.Join(", ", registry.KvStorageNames);
        var group = app.MapGroup("/v0").WithTags("Key-value");
        var entity = group.MapGroup("/entity");
        // Only a cluster node routes keys to their owners; a single node has no filter to run.
        if (cluster.Nodes.Count > 0) entity.AddEndpointFilter(new KvOwnerRouting(cluster));
        entity.MapMethods("", [HttpMethods.Get, HttpMethods.Put, HttpMethods.Delete], EntityAsync)
            .WithName("KvEntity").WithMetadata(ReadsStorageParameter.KeyValue)
            .WithSummary($"GET the value of ?id= (200 raw bytes, 404), PUT the raw body as its value (201; at most {KvLimits.MaxValueBytes} bytes), " +
                         $"DELETE it (202, also when absent). Architectures: {names}; default {registry.KvDefaultName}.")
            .Produces(StatusCodes.Status200OK, contentType: "application/octet-stream")
            .Produces(StatusCodes.Status201Created).Produces(StatusCodes.Status202Accepted)
            .ProducesProblem(StatusCodes.Status404NotFound).ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status413PayloadTooLarge).ProducesProblem(StatusCodes.Status503ServiceUnavailable);
        var status = new KvStatusResponse("ok", cluster.Self, cluster.Nodes);
        group.MapGet("/status", () => Results.Json(status, ApiJsonContext.Default.KvStatusResponse))
            .WithName("KvStatus").WithSummary("200 while this node serves: this node and the cluster's nodes (none for a single node).")
            .Produces<KvStatusResponse>();
        // Every other request under /v0/: the routes above with another method (405), else an unknown path (400,
        // as the studies' tests require). The framework's own 405 would not apply: this route matches any method.
        group.Map("/{**path}", (HttpContext context, string? path) => path?.ToLowerInvariant() switch
        {
            "entity" => NotAllowed(context, Allowed),
            "status" => NotAllowed(context, "GET"),
            _ => ApiResults.Invalid("path", $"Unknown path /v0/{path}; the key-value API serves /v0/entity and /v0/status."),
        }).ExcludeFromDescription();
    }

    private static IResult NotAllowed(HttpContext context, string allowed)
    {
        context.Response.Headers.Allow = allowed;
        return Results.Problem(statusCode: StatusCodes.Status405MethodNotAllowed, title: "Method Not Allowed",
            detail: $"{context.Request.Method} is not served here.");
    }

    /// <summary>Bound and checked (<see cref="KvEntityRequest"/>); a key another node owns never gets here (<see cref="KvOwnerRouting"/>).</summary>
    private static Task<IResult> EntityAsync(KvEntityRequest request, HttpContext context, CancellationToken cancellationToken) =>
        request.Problem is not null ? Task.FromResult(request.Problem) : ServeAsync(request, request.Store, context, cancellationToken);

    /// <summary>A valid request served by <paramref name="store"/>: this node's, or the owner's on a cluster (<see cref="KvPeerStore"/>).</summary>
    internal static async Task<IResult> ServeAsync(KvEntityRequest request, IKvStore store, HttpContext context, CancellationToken cancellationToken)
    {
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            var value = await store.GetAsync(request.Key, cancellationToken);
            return value is null ? ApiResults.NotFound($"No value for id '{request.Key}'.") : Results.Bytes(value, "application/octet-stream");
        }
        if (HttpMethods.IsPut(method))
        {
            await store.PutAsync(request.Key, request.Value, cancellationToken);
            return Results.StatusCode(StatusCodes.Status201Created);
        }
        await store.DeleteAsync(request.Key, cancellationToken);
        return Results.StatusCode(StatusCodes.Status202Accepted);
    }

    /// <summary>The key named by <c>?id=</c>: given once, not empty, no U+0000, at most <see cref="KvLimits.MaxKeyBytes"/> UTF-8 bytes.</summary>
    internal static bool TryReadKey(Microsoft.Extensions.Primitives.StringValues id, out string key, out IResult problem)
    {
        key = id.Count == 1 ? id[0] ?? "" : "";
        problem = id.Count switch
        {
            0 => ApiResults.Invalid("id", "The id is required."),
            > 1 => ApiResults.Invalid("id", "The id may be given at most once."),
            _ when key.Length == 0 => ApiResults.Invalid("id", "The id must not be empty."),
            // PostgreSQL's text cannot hold it (a 500 there); refused on every store, so all answer alike.
            _ when key.Contains('\0') => ApiResults.Invalid("id", "The id must not contain the NUL character (U+0000)."),
            _ when Encoding.UTF8.GetByteCount(key) > KvLimits.MaxKeyBytes => ApiResults.Invalid("id", $"The id is at most {KvLimits.MaxKeyBytes} bytes of UTF-8."),
            _ => null!,
        };
        return problem is null;
    }
}

/// <summary>The answer of <c>GET /v0/status</c>: this node's URL and every node's in a cluster (null and empty for a single node).</summary>
public sealed record KvStatusResponse(string Status, string? Node, IReadOnlyList<string> Nodes);
