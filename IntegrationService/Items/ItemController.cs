using System.ComponentModel.DataAnnotations;
using IntegrationService.Storage;
using Microsoft.AspNetCore.Mvc;

namespace IntegrationService.Items;

/// <summary>An item's locations, with the original Go service's routes and JSON.</summary>
[ApiController]
[Route("item/{id}/locations")]
public sealed class ItemController(StorageRegistry storages) : ControllerBase
{
    private static readonly OkResponse Ok1 = new(1);

    /// <summary>The item's locations ordered by id; <c>[]</c> when it has none.</summary>
    [HttpGet]
    [ProducesResponseType<IReadOnlyList<Location>>(StatusCodes.Status200OK)]
    public async Task<IActionResult> Get([FromRoute, Range(1, long.MaxValue, ErrorMessage = "The id must be a positive number.")] long id, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        var locations = await storages.Items(storage).GetLocationsAsync(id, cancellationToken);
        return Ok(locations);
    }

    /// <summary>Replaces the item's whole set of locations.</summary>
    [HttpPost]
    [ProducesResponseType<OkResponse>(StatusCodes.Status200OK)]
    public async Task<IActionResult> Replace([FromRoute, Range(1, long.MaxValue, ErrorMessage = "The id must be a positive number.")] long id, [FromBody] ReplaceLocationsRequest request, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        var ids = request.LocationIds!;
        var invalid = ids.Where(l => l <= 0).ToArray();
        if (invalid.Length > 0)
        {
            ModelState.AddModelError("LocationIds", $"Location ids must be positive: {string.Join(", ", invalid)}.");
            return ValidationProblem(ModelState);
        }
        var store = storages.Items(storage);
        await store.ReplaceLocationsAsync(id, ids.Distinct().Order().ToArray(), cancellationToken);
        return Ok(Ok1);
    }
}
