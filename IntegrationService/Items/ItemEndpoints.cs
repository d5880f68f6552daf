using IntegrationService.Http;
using IntegrationService.Storage;
using Microsoft.AspNetCore.Mvc;

namespace IntegrationService.Items;

/// <summary>An item's locations, with the original Go service's routes and JSON.</summary>
public sealed class ItemEndpoints(StorageRegistry storages)
{
    private static readonly OkResponse Ok1 = new(1);

    public static void Map(IEndpointRouteBuilder app)
    {
        var endpoints = new ItemEndpoints(app.ServiceProvider.GetRequiredService<StorageRegistry>());
        var group = app.MapGroup("/item/{id}/locations").WithTags("Item").WithMetadata(ReadsStorageParameter.Instance);
        group.MapGet("", endpoints.GetAsync).WithName("GetLocations")
            .WithSummary("The item's locations ordered by id; [] when it has none.")
            .Produces<IReadOnlyList<Location>>().ProducesValidationProblem();
        group.MapPost("", endpoints.ReplaceAsync).WithName("ReplaceLocations")
            .WithSummary($"Replaces the item's whole set of locations (positive ids, at most {ItemLimits.MaxLocationsPerItem}; duplicates ignored; [] clears it).")
            .Accepts<ReplaceLocationsRequest>("application/json").Produces<OkResponse>().ProducesValidationProblem();
    }

    private async Task<IResult> GetAsync(string id, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        if (!RequestValues.TryParseId(id, "id", out var itemId, out var problem)) return problem;
        var locations = await storages.Items(storage).GetLocationsAsync(itemId, cancellationToken);
        return Results.Json(locations, ApiJsonContext.Default.IReadOnlyListLocation);
    }

    private async Task<IResult> ReplaceAsync(HttpContext context, string id, [FromQuery] string? storage)
    {
        if (!RequestValues.TryParseId(id, "id", out var itemId, out var problem)) return problem;
        var store = storages.Items(storage);
        var (request, bodyProblem) = await JsonBody.ReadAsync(context.Request, ApiJsonContext.Default.ReplaceLocationsRequest);
        if (request is null) return bodyProblem!;
        if (Validate(request.LocationIds) is { } invalid) return ApiResults.Invalid("LocationIds", invalid);
        await store.ReplaceLocationsAsync(itemId, request.LocationIds!.Distinct().Order().ToArray(), context.RequestAborted);
        return Results.Json(Ok1, ApiJsonContext.Default.OkResponse);
    }

    private static string? Validate(long[]? ids)
    {
        if (ids is null) return "The LocationIds field is required.";
        if (ids.Length > ItemLimits.MaxLocationsPerItem) return $"At most {ItemLimits.MaxLocationsPerItem} location ids.";
        var invalid = ids.Where(l => l <= 0).ToArray();
        return invalid.Length > 0 ? $"Location ids must be positive: {string.Join(", ", invalid)}." : null;
    }
}
