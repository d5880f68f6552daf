using Microsoft.AspNetCore.Mvc.ApiExplorer;

namespace IntegrationService.Http;

/// <summary>
/// OpenAPI operationIds: the endpoint's name (<c>WithName</c>), with the HTTP method appended when
/// one route serves several (<c>/v0/entity</c>: KvEntityGet, KvEntityPut, KvEntityDelete), since client
/// generators refuse a document in which two operations share an id.
/// </summary>
internal static class OperationIds
{
    public static string? Of(ApiDescription api)
    {
        var metadata = api.ActionDescriptor.EndpointMetadata;
        var name = metadata.OfType<IEndpointNameMetadata>().LastOrDefault()?.EndpointName;
        if (name is null || api.HttpMethod is null) return name;
        var methods = metadata.OfType<IHttpMethodMetadata>().LastOrDefault()?.HttpMethods;
        return methods is { Count: > 1 } ? name + char.ToUpperInvariant(api.HttpMethod[0]) + api.HttpMethod[1..].ToLowerInvariant() : name;
    }
}
