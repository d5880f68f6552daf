namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The endpoint filter of the <c>/v0/entity</c> group on a cluster node: a valid request for a key
/// another node owns is served by the same handler code with that owner's store (<see cref="KvPeerStore"/>,
/// the hop), its answer naming the owner (<see cref="KvCluster.OwnerHeader"/>); every other request, a
/// bad one included, goes on to the handler with this node's store.
/// </summary>
public sealed class KvOwnerRouting(KvCluster cluster) : IEndpointFilter
{
    public ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var http = context.HttpContext;
        var request = context.GetArgument<KvEntityRequest>(0); // the handler's first parameter
        if (request.Problem is null && cluster.OwnerOf(http.Request, request.Key) is { } owner)
        {
            http.Response.Headers[KvCluster.OwnerHeader] = owner.Url;
            var store = new KvPeerStore(cluster, owner, http.Request.Query["storage"]);
            return ServeAsync(request, store, http);
        }
        return next(context);
    }

    private static async ValueTask<object?> ServeAsync(KvEntityRequest request, KvPeerStore store, HttpContext http) =>
        await KvEndpoints.ServeAsync(request, store, http, http.RequestAborted);
}
