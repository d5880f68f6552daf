namespace IntegrationService.Http;

/// <summary>The error answers the endpoints give, all ProblemDetails (<c>application/problem+json</c>).</summary>
public static class ApiResults
{
    /// <summary>400 naming the offending field, as <c>errors: { field: [message] }</c>.</summary>
    public static IResult Invalid(string field, string message) =>
        Results.ValidationProblem(new Dictionary<string, string[]> { [field] = [message] }, detail: message);

    public static IResult Invalid(IDictionary<string, string[]> errors) => Results.ValidationProblem(errors);

    public static IResult NotFound(string detail) =>
        Results.Problem(statusCode: StatusCodes.Status404NotFound, title: "Not Found", detail: detail);
}
