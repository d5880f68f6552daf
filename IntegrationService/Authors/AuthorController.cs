using System.ComponentModel.DataAnnotations;
using IntegrationService.Storage;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.ModelBinding;

namespace IntegrationService.Authors;

/// <summary>Author CRUD with the original .NET service's <c>[controller]/[action]</c> routes.</summary>
[ApiController]
[Route("[controller]/[action]")]
public sealed class AuthorController(StorageRegistry storages) : ControllerBase
{
    /// <summary>Creates an author; any id in the body is ignored.</summary>
    [HttpPost]
    [ProducesResponseType<Author>(StatusCodes.Status201Created)]
    public async Task<IActionResult> Save([FromBody] Author author, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        var store = storages.Authors(storage);
        var created = await store.CreateAsync(author with { Id = 0 }, cancellationToken);
        return CreatedAtAction(nameof(Get), new { id = created.Id, storage }, created);
    }

    /// <summary>One author by id.</summary>
    [HttpGet]
    [ProducesResponseType<Author>(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound)]
    public async Task<IActionResult> Get([FromQuery, BindRequired, Range(1, long.MaxValue, ErrorMessage = "The id must be a positive number.")] long id, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        var author = await storages.Authors(storage).GetAsync(id, cancellationToken);
        return author is null ? AuthorNotFound(id) : Ok(author);
    }

    /// <summary>A page of authors ordered by id.</summary>
    [HttpGet]
    [ProducesResponseType<IReadOnlyList<Author>>(StatusCodes.Status200OK)]
    public async Task<IActionResult> GetAll(
        [FromQuery, Range(0, int.MaxValue)] int offset = 0,
        [FromQuery, Range(1, AuthorLimits.MaxPageSize)] int limit = 100,
        [FromQuery] string? storage = null,
        CancellationToken cancellationToken = default)
    {
        var page = await storages.Authors(storage).GetPageAsync(offset, limit, cancellationToken);
        return Ok(page);
    }

    /// <summary>Replaces every field of an existing author.</summary>
    [HttpPost]
    [ProducesResponseType<Author>(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound)]
    public async Task<IActionResult> Update([FromBody] Author author, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        if (author.Id <= 0)
        {
            ModelState.AddModelError("id", "The id must be a positive number.");
            return ValidationProblem(ModelState);
        }
        var updated = await storages.Authors(storage).UpdateAsync(author, cancellationToken);
        return updated is null ? AuthorNotFound(author.Id) : Ok(updated);
    }

    /// <summary>Deletes an author.</summary>
    [HttpPost]
    [ProducesResponseType(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound)]
    public async Task<IActionResult> Delete([FromQuery, BindRequired, Range(1, long.MaxValue, ErrorMessage = "The id must be a positive number.")] long id, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        var deleted = await storages.Authors(storage).DeleteAsync(id, cancellationToken);
        return deleted ? Ok() : AuthorNotFound(id);
    }

    private ObjectResult AuthorNotFound(long id) =>
        Problem(statusCode: StatusCodes.Status404NotFound, title: "Not Found", detail: $"No author with id {id}.");
}
