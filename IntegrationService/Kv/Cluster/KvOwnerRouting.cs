namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The endpoint filter of the <c>/v0/entity</c> group on a cluster node: a valid request for a key
/// another node owns is forwarded to that owner and its answer relayed (<see cref="KvCluster.ForwardAsync"/>);
/// every other request, a bad one included, goes on to the handler, which then serves only local keys.
/// </summary>
public sealed class KvOwnerRouting(KvCluster cluster) : IEndpointFilter
{
    public ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var http = context.HttpContext;
        var request = context.GetArgument<KvEntityRequest>(0); // the handler's first parameter
        if (request.Problem is null && cluster.OwnerOf(http.Request, request.Key) is { } owner)
        {
            return RelayAsync(http, owner, request.Value);
        }
        return next(context);
    }

    private async ValueTask<object?> RelayAsync(HttpContext context, KvPeer owner, byte[]? value)
    {
        await cluster.ForwardAsync(context, owner, value);
        return Results.Empty; // the owner's answer is already written
    }
}
