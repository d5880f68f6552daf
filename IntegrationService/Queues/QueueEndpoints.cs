using System.Text.Json;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace IntegrationService.Queues;

/// <summary>
/// Message queues with the original study's routes: <c>GET /write/{queue}</c> enqueues a generated
/// message, <c>POST /write/{queue}</c> the JSON body, <c>GET /read/{queue}</c> takes the oldest
/// message (204 when there is none). <c>{queue}</c> is an architecture name.
/// </summary>
public sealed class QueueEndpoints(StorageRegistry storages)
{
    public static void Map(IEndpointRouteBuilder app)
    {
        var registry = app.ServiceProvider.GetRequiredService<StorageRegistry>();
        var endpoints = new QueueEndpoints(registry);
        var names = string.Join(", ", registry.QueueStorageNames);
        app.MapGet("/write/{queue}", endpoints.WriteGeneratedAsync).WithName("WriteGeneratedMessage").WithTags("Queue")
            .WithSummary($"Enqueues a generated message (a fake user, a title and a timestamp, like the original study's). Queues: {names}.")
            .Produces<QueueWriteResponse>(StatusCodes.Status201Created).ProducesValidationProblem();
        app.MapPost("/write/{queue}", endpoints.WriteBodyAsync).WithName("WriteMessage").WithTags("Queue")
            .WithSummary($"Enqueues the JSON body as the message (at most {QueueLimits.MaxMessageBytes} bytes; larger is 413); an empty body enqueues a generated message.")
            .Accepts<JsonElement>("application/json")
            .Produces<QueueWriteResponse>(StatusCodes.Status201Created).ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status413PayloadTooLarge);
        app.MapGet("/read/{queue}", endpoints.ReadAsync).WithName("ReadMessage").WithTags("Queue")
            .WithSummary("Takes the oldest message off the queue; 204 when the queue is empty. Each message is read once.")
            .Produces<QueueReadResponse>().Produces(StatusCodes.Status204NoContent).ProducesValidationProblem();
        app.MapGet("/depth/{queue}", endpoints.DepthAsync).WithName("QueueDepth").WithTags("Queue")
            .WithSummary("Messages waiting in the queue (may scan the queue: for benchmarks and operators, not a hot path).")
            .Produces<QueueDepthResponse>().ProducesValidationProblem();
    }

    private Task<IResult> WriteGeneratedAsync(string queue, CancellationToken cancellationToken) =>
        WriteAsync(storages.Queue(queue), GeneratedMessage.Create(), cancellationToken);

    private async Task<IResult> WriteBodyAsync(HttpContext context, string queue)
    {
        var target = storages.Queue(queue); // an unknown queue is a 400 before the body is read
        var (body, problem) = await QueueMessageBody.ReadAsync(context.Request);
        if (problem is not null) return problem;
        return await WriteAsync(target, body.Length == 0 ? GeneratedMessage.Create() : body, context.RequestAborted);
    }

    private static async Task<IResult> WriteAsync((string Name, IQueueStore Store) queue, ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        var id = await queue.Store.EnqueueAsync(message, cancellationToken);
        return Results.Json(new QueueWriteResponse(queue.Name, "write", true, id), ApiJsonContext.Default.QueueWriteResponse,
            statusCode: StatusCodes.Status201Created);
    }

    private async Task<IResult> ReadAsync(string queue, CancellationToken cancellationToken)
    {
        var (name, store) = storages.Queue(queue);
        var message = await store.DequeueAsync(cancellationToken);
        return message is null ? Results.NoContent() : new QueueReadResult(name, message);
    }

    private async Task<IResult> DepthAsync(string queue, CancellationToken cancellationToken)
    {
        var (name, store) = storages.Queue(queue);
        var depth = await store.CountAsync(cancellationToken);
        return Results.Json(new QueueDepthResponse(name, depth), ApiJsonContext.Default.QueueDepthResponse);
    }
}
