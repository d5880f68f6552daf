using System.Text.Json;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace IntegrationService.Queues;

/// <summary>
/// Message queues with the original study's routes: <c>GET /write/{queue}</c> enqueues a generated
/// message, <c>POST /write/{queue}</c> the JSON body, <c>GET /read/{queue}</c> takes the oldest
/// message (204 when there is none). <c>{queue}</c> is an architecture name.
/// <para>
/// Beside them, the leased read: <c>POST /read/{queue}?lease=30s</c> takes the oldest message for
/// the lease and answers it with a receipt; <c>POST /ack/{queue}/{receipt}</c> deletes it,
/// <c>POST /nack/{queue}/{receipt}</c> gives it back at once; a lease that ends unacknowledged
/// gives it back too. <c>GET /read</c> is at-most-once end to end (a read whose answer is lost
/// loses its message); the leased read is at-least-once (<see cref="Storage.QueueDelivery"/>).
/// </para>
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
            .WithSummary("Takes the oldest message off the queue; 204 when the queue is empty. Each message is read once, at most: a read whose answer is lost loses its message (use the leased read for at least once).")
            .Produces<QueueReadResponse>().Produces(StatusCodes.Status204NoContent).ProducesValidationProblem();
        app.MapPost("/read/{queue}", endpoints.LeaseAsync).WithName("LeaseMessage").WithTags("Queue")
            .WithSummary($"Takes the oldest message for a lease (?lease=30s; from {QueueLease.Min.TotalSeconds:0} s to {QueueLease.Max.TotalMinutes:0} min, default {QueueLease.Default.TotalSeconds:0} s) and answers it with a receipt; 204 when no message is waiting. "
                + "Acknowledge it with POST /ack/{queue}/{receipt}; one not acknowledged within the lease is delivered again (at least once).")
            .Produces<QueueLeaseResponse>().Produces(StatusCodes.Status204NoContent).ProducesValidationProblem();
        app.MapPost("/ack/{queue}/{receipt}", endpoints.AckAsync).WithName("AckMessage").WithTags("Queue")
            .WithSummary("Deletes a leased message; 404 when the receipt names no lease held now (unknown, already acknowledged, given back, or expired: the message may be delivered again).")
            .Produces(StatusCodes.Status204NoContent).ProducesValidationProblem().ProducesProblem(StatusCodes.Status404NotFound);
        app.MapPost("/nack/{queue}/{receipt}", endpoints.NackAsync).WithName("NackMessage").WithTags("Queue")
            .WithSummary("Gives a leased message back at once, to be delivered again; 404 as for ack.")
            .Produces(StatusCodes.Status204NoContent).ProducesValidationProblem().ProducesProblem(StatusCodes.Status404NotFound);
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

    private async Task<IResult> LeaseAsync(string queue, string? lease, CancellationToken cancellationToken)
    {
        var (name, store) = storages.Queue(queue);
        if (!QueueLease.TryParse(lease, out var duration, out var error)) return ApiResults.Invalid("lease", error!);
        var message = await store.LeaseAsync(duration, cancellationToken);
        return message is null ? Results.NoContent() : new QueueReadResult(name, message, duration);
    }

    private Task<IResult> AckAsync(string queue, string receipt, CancellationToken cancellationToken) =>
        EndLeaseAsync(queue, receipt, static (store, receipt, ct) => store.AckAsync(receipt, ct), cancellationToken);

    private Task<IResult> NackAsync(string queue, string receipt, CancellationToken cancellationToken) =>
        EndLeaseAsync(queue, receipt, static (store, receipt, ct) => store.NackAsync(receipt, ct), cancellationToken);

    private async Task<IResult> EndLeaseAsync(string queue, string receipt, Func<IQueueStore, string, CancellationToken, Task<bool>> end,
        CancellationToken cancellationToken)
    {
        var (name, store) = storages.Queue(queue);
        if (!QueueLease.IsWellFormed(receipt))
        {
            return ApiResults.Invalid("receipt", $"A receipt is 1 to {QueueLease.MaxReceiptLength} characters of letters, digits, '-', '_' and '.'.");
        }
        return await end(store, receipt, cancellationToken)
            ? Results.NoContent()
            : ApiResults.NotFound($"No lease on queue '{name}' holds receipt '{receipt}': unknown, already acknowledged or given back, or expired (its message is then delivered again).");
    }

    private async Task<IResult> DepthAsync(string queue, CancellationToken cancellationToken)
    {
        var (name, store) = storages.Queue(queue);
        var depth = await store.CountAsync(cancellationToken);
        return Results.Json(new QueueDepthResponse(name, depth), ApiJsonContext.Default.QueueDepthResponse);
    }
}
