using IntegrationService.Http;
using IntegrationService.Storage;
using Microsoft.AspNetCore.Mvc;

namespace IntegrationService.Authors;

/// <summary>
/// Author CRUD on the original .NET service's <c>/Author/{action}</c> routes. Minimal-API handlers
/// rather than MVC: the hot path is parse, call the store, write source-generated JSON.
/// </summary>
public sealed class AuthorEndpoints(StorageRegistry storages)
{
    public static void Map(IEndpointRouteBuilder app)
    {
        var endpoints = new AuthorEndpoints(app.ServiceProvider.GetRequiredService<StorageRegistry>());
        var group = app.MapGroup("/Author").WithTags("Author").WithMetadata(ReadsStorageParameter.Instance);
        group.MapPost("/Save", endpoints.SaveAsync).WithName("Save")
            .WithSummary("Creates an author; any id in the body is ignored.")
            .Accepts<Author>("application/json").Produces<Author>(StatusCodes.Status201Created).ProducesValidationProblem();
        group.MapGet("/Get", endpoints.GetAsync).WithName("Get")
            .WithSummary("One author by id.")
            .Produces<Author>().ProducesValidationProblem().ProducesProblem(StatusCodes.Status404NotFound);
        group.MapGet("/GetAll", endpoints.GetAllAsync).WithName("GetAll")
            .WithSummary($"A page of authors ordered by id (offset ≥ 0, default 0; limit 1..{AuthorLimits.MaxPageSize}, default 100).")
            .Produces<IReadOnlyList<Author>>().ProducesValidationProblem();
        group.MapPost("/Update", endpoints.UpdateAsync).WithName("Update")
            .WithSummary("Replaces every field of an existing author.")
            .Accepts<Author>("application/json").Produces<Author>().ProducesValidationProblem().ProducesProblem(StatusCodes.Status404NotFound);
        group.MapPost("/Delete", endpoints.DeleteAsync).WithName("Delete")
            .WithSummary("Deletes an author.")
            .Produces(StatusCodes.Status200OK).ProducesValidationProblem().ProducesProblem(StatusCodes.Status404NotFound);
    }

    private async Task<IResult> SaveAsync(HttpContext context, [FromQuery] string? storage)
    {
        var store = storages.Authors(storage);
        var (author, problem) = await ReadAuthorAsync(context.Request);
        if (author is null) return problem!;
        var created = await store.CreateAsync(author with { Id = 0 }, context.RequestAborted);
        context.Response.Headers.Location = storage is null
            ? $"/Author/Get?id={created.Id}"
            : $"/Author/Get?id={created.Id}&storage={Uri.EscapeDataString(storage)}";
        return Results.Json(created, ApiJsonContext.Default.Author, statusCode: StatusCodes.Status201Created);
    }

    private async Task<IResult> GetAsync([FromQuery] string? id, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        if (!RequestValues.TryParseId(id, "id", out var authorId, out var problem)) return problem;
        var author = await storages.Authors(storage).GetAsync(authorId, cancellationToken);
        return author is null ? NotFound(authorId) : Results.Json(author, ApiJsonContext.Default.Author);
    }

    private async Task<IResult> GetAllAsync([FromQuery] string? offset, [FromQuery] string? limit, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        if (!RequestValues.TryParseInt(offset, "offset", 0, int.MaxValue, 0, out var from, out var problem)) return problem;
        if (!RequestValues.TryParseInt(limit, "limit", 1, AuthorLimits.MaxPageSize, 100, out var count, out problem)) return problem;
        var page = await storages.Authors(storage).GetPageAsync(from, count, cancellationToken);
        return Results.Json(page, ApiJsonContext.Default.IReadOnlyListAuthor);
    }

    private async Task<IResult> UpdateAsync(HttpContext context, [FromQuery] string? storage)
    {
        var store = storages.Authors(storage);
        var (author, problem) = await ReadAuthorAsync(context.Request);
        if (author is null) return problem!;
        if (author.Id <= 0) return ApiResults.Invalid("id", "The id must be a positive number.");
        var updated = await store.UpdateAsync(author, context.RequestAborted);
        return updated is null ? NotFound(author.Id) : Results.Json(updated, ApiJsonContext.Default.Author);
    }

    private async Task<IResult> DeleteAsync([FromQuery] string? id, [FromQuery] string? storage, CancellationToken cancellationToken)
    {
        if (!RequestValues.TryParseId(id, "id", out var authorId, out var problem)) return problem;
        return await storages.Authors(storage).DeleteAsync(authorId, cancellationToken) ? Results.Ok() : NotFound(authorId);
    }

    private static async ValueTask<(Author? Author, IResult? Problem)> ReadAuthorAsync(HttpRequest request)
    {
        var (author, problem) = await JsonBody.ReadAsync(request, ApiJsonContext.Default.Author);
        if (author is null) return (null, problem);
        var errors = AuthorValidator.Validate(author);
        return errors is null ? (author, null) : (null, ApiResults.Invalid(errors));
    }

    private static IResult NotFound(long id) => ApiResults.NotFound($"No author with id {id}.");
}
