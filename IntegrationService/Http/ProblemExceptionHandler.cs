using IntegrationService.Items;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.AspNetCore.Diagnostics;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace IntegrationService.Http;

/// <summary>
/// Maps the exceptions the stores and binding throw to ProblemDetails: unknown storage or
/// location ids are 400, an unreachable or overloaded backend is 503 with Retry-After. Anything else stays a
/// 500, which is always a bug.
/// </summary>
internal sealed class ProblemExceptionHandler(
    IProblemDetailsService problemDetails,
    IOptions<StorageOptions> options,
    ILogger<ProblemExceptionHandler> logger) : IExceptionHandler
{
    public async ValueTask<bool> TryHandleAsync(HttpContext context, Exception exception, CancellationToken cancellationToken)
    {
        if (exception is OperationCanceledException && context.RequestAborted.IsCancellationRequested)
        {
            // The client went away; nobody reads the answer.
            context.Response.StatusCode = 499;
            return true;
        }

        var problem = exception switch
        {
            UnknownStorageException e => Invalid(e.Parameter, e.Message),
            UnknownLocationsException e => Invalid("LocationIds", e.Message),
            BadHttpRequestException e => new ProblemDetails { Status = e.StatusCode, Title = "Bad Request", Detail = e.Message },
            StorageUnavailableException e => Unavailable(context, e),
            BackendOverloadedException e => Overloaded(context, e),
            _ => null,
        };
        if (problem is null) return false;

        context.Response.StatusCode = problem.Status ?? StatusCodes.Status500InternalServerError;
        return await problemDetails.TryWriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = problem,
            Exception = exception,
        });
    }

    private static ValidationProblemDetails Invalid(string field, string message) =>
        new(new Dictionary<string, string[]> { [field] = [message] })
        {
            Status = StatusCodes.Status400BadRequest,
            Detail = message,
        };

    // Not logged one by one: under overload there are thousands a second.
    private ProblemDetails Overloaded(HttpContext context, BackendOverloadedException exception)
    {
        RetryLater(context);
        return new ProblemDetails
        {
            Status = StatusCodes.Status503ServiceUnavailable,
            Title = "Backend overloaded",
            Detail = exception.Message,
        };
    }

    private void RetryLater(HttpContext context) =>
        context.Response.Headers.RetryAfter = options.Value.RetryAfterSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture);

    private ProblemDetails Unavailable(HttpContext context, StorageUnavailableException exception)
    {
        logger.LogWarning("Backend {Backend} unavailable: {Reason}", exception.Backend, exception.InnerException?.Message ?? exception.Message);
        RetryLater(context);
        return new ProblemDetails
        {
            Status = StatusCodes.Status503ServiceUnavailable,
            Title = "Storage unavailable",
            Detail = exception.Message,
        };
    }
}
