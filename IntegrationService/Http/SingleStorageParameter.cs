using IntegrationService.Storage;
using Microsoft.AspNetCore.Mvc;

namespace IntegrationService.Http;

/// <summary>
/// Refuses <c>?storage=</c> given more than once (400) on the routes marked
/// <see cref="ReadsStorageParameter"/>. Which one would be meant is a guess (the framework's binding
/// joins the values with a comma, or drops an empty first one), so every architecture refuses it alike.
/// </summary>
internal sealed class SingleStorageParameter(RequestDelegate next, IProblemDetailsService problems)
{
    private const string Message = "The storage parameter may be given at most once.";

    public Task InvokeAsync(HttpContext context)
    {
        if (context.Request.Query["storage"].Count <= 1 || context.GetEndpoint()?.Metadata.GetMetadata<ReadsStorageParameter>() is null)
        {
            return next(context);
        }
        context.Response.StatusCode = StatusCodes.Status400BadRequest;
        return problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ValidationProblemDetails(new Dictionary<string, string[]> { ["storage"] = [Message] })
            {
                Status = StatusCodes.Status400BadRequest,
                Detail = Message,
            },
        }).AsTask();
    }
}
