using Crash.Commands;

using Tank.Commands;
using System.Text;
using System.Text.Json;
using Crash;

namespace Crash.Tests;

public sealed class WorkloadTests
{
    private const string Url = "http://127.0.0.1:1";

    [Fact]
    public void AnAuthorBodyCarriesEveryFieldInCamelCase()
    {
        using var json = JsonDocument.Parse(AuthorBody.For("r1", 103).ToJson());
        var root = json.RootElement;
        Assert.False(root.TryGetProperty("id", out _));
        Assert.Equal("crash-r1-103", root.GetProperty("name").GetString());
        Assert.Equal("f103", root.GetProperty("familyName").GetString());
        Assert.Equal(JsonValueKind.Null, root.GetProperty("middleName").ValueKind);
        Assert.Equal(3, root.GetProperty("age").GetInt32());
        Assert.Equal(103, root.GetProperty("booksCount").GetInt32());
        Assert.Equal("c", root.GetProperty("birthCountry").GetString());
        Assert.Equal("x", root.GetProperty("birthCity").GetString());
        Assert.Equal("2000-01-01T00:00:00Z", root.GetProperty("birthDateTime").GetString());
        Assert.Equal(42, JsonDocument.Parse(AuthorBody.For("r1", 7, id: 42).ToJson()).RootElement.GetProperty("id").GetInt64());
    }

    [Fact]
    public void TheApisAnswerForAnAuthorHasTheCanonicalValueOfTheBodySent()
    {
        var sent = AuthorBody.For("r1", 5);
        // As IntegrationService writes it: the id added, the date with a fraction.
        var answer = """{"id":77,"name":"crash-r1-5","familyName":"f5","middleName":null,"age":5,"birthCountry":"c","birthCity":"x","booksCount":5,"nationality":"n","birthDateTime":"2000-01-01T00:00:00.000000Z"}""";
        Assert.Equal(sent.Canonical(), AuthorBody.FromJson(Encoding.UTF8.GetBytes(answer))!.Canonical());
        Assert.NotEqual(sent.Canonical(), AuthorBody.For("r1", 6).Canonical());
        Assert.NotEqual(sent.Canonical(), (sent with { BooksCount = 6 }).Canonical());
    }

    [Fact]
    public void ASaveIsAcknowledgedBy201WithAnIdAndLearnsItsKey()
    {
        var authors = new AuthorWorkload(Url, "postgres", "r1", seed: 1);
        var save = authors.Next(0)!;
        Assert.True(save.Creates);
        Assert.Null(save.Key);
        Assert.Equal($"{Url}/Author/Save?storage=postgres", save.Url);
        Assert.False(authors.Acknowledges(save, 200, """{"id":5}"""u8.ToArray()));
        Assert.False(authors.Acknowledges(save, 201, """{"title":"x"}"""u8.ToArray()));
        Assert.False(authors.Acknowledges(save, 201, "not json"u8.ToArray()));
        Assert.Null(save.Key);
        Assert.True(authors.Acknowledges(save, 201, """{"id":5,"name":"n"}"""u8.ToArray()));
        Assert.Equal("5", save.Key);
    }

    [Fact]
    public void EveryFourthAuthorWriteUpdatesAnAcknowledgedAuthorThatIsNotBusy()
    {
        var authors = new AuthorWorkload(Url, "postgres", "r1", seed: 1);
        Assert.True(authors.Next(3)!.Creates); // nothing acknowledged yet: a save instead
        var save = authors.Next(0)!;
        Complete(authors, save, 201, """{"id":9}""");
        Assert.True(authors.Next(1)!.Creates);
        var update = authors.Next(7)!;
        Assert.False(update.Creates);
        Assert.Equal("9", update.Key);
        Assert.Equal($"{Url}/Author/Update?storage=postgres", update.Url);
        Assert.Equal(9, JsonDocument.Parse(update.Body).RootElement.GetProperty("id").GetInt64());
        Assert.True(authors.Next(11)!.Creates); // author 9 is busy with the update
        Complete(authors, update, 200, "{}");
        Assert.False(authors.Next(15)!.Creates);
    }

    [Fact]
    public void AnAuthorWhoseUpdateEndedInDoubtIsNeverWrittenAgain()
    {
        var authors = new AuthorWorkload(Url, "postgres", "r1", seed: 1);
        Complete(authors, authors.Next(0)!, 201, """{"id":9}""");
        var update = authors.Next(3)!;
        Complete(authors, update, 0, "", ResponseClass.Timeout);
        Assert.True(authors.Next(7)!.Creates);
    }

    [Fact]
    public void AuthorReadsTell404FromRetryableAndHopelessAnswers()
    {
        var authors = new AuthorWorkload(Url, "a b", "r1", seed: 1);
        Assert.Equal($"{Url}/Author/Get?id=4&storage=a%20b", authors.ReadUrl("4"));
        Assert.Equal(ReadValue.Missing, authors.ParseRead(404, []));
        Assert.Null(authors.ParseRead(503, []));
        Assert.Null(authors.ParseRead(500, []));
        Assert.Equal(ReadValue.Unreadable, authors.ParseRead(400, []));
        Assert.Equal(ReadValue.Of(AuthorBody.For("r1", 2).Canonical()), authors.ParseRead(200, AuthorBody.For("r1", 2, id: 4).ToJson()));
    }

    [Fact]
    public void ItemWritesCycleThroughTheRangePassingOverBusyAndRetiredItems()
    {
        var items = new ItemWorkload(Url, "redis", new KeyRange(10, 12), salt: 0, blocks: ItemLocations.Blocks);
        var first = items.Next(0)!;
        Assert.Equal("10", first.Key);
        Assert.Equal($"{Url}/item/10/locations?storage=redis", first.Url);
        Assert.Equal(ItemLocations.Canonical(ItemLocations.For(0, 0)), first.Value);
        Assert.Equal(ItemLocations.For(0, 0), JsonDocument.Parse(first.Body).RootElement.GetProperty("LocationIds").EnumerateArray().Select(e => e.GetInt64()));
        var second = items.Next(1)!;
        Assert.Equal("11", second.Key);
        Complete(items, first, 0, "", ResponseClass.Connection); // item 10 retired
        Assert.Equal("12", items.Next(2)!.Key);
        Assert.Null(items.Next(3)); // 10 retired, 11 and 12 busy
        Complete(items, second, 200, """{"ok":1}""");
        Assert.Equal("11", items.Next(4)!.Key);
        Assert.Equal(["10", "11", "12"], items.KeysToReadBefore(2));
    }

    [Theory]
    [InlineData(200, true, ResponseClass.Ack, WriteOutcome.Acked)]
    [InlineData(201, false, ResponseClass.OtherStatus, WriteOutcome.InDoubt)]
    [InlineData(503, false, ResponseClass.Unavailable, WriteOutcome.InDoubt)]
    [InlineData(500, false, ResponseClass.OtherStatus, WriteOutcome.InDoubt)]
    [InlineData(400, false, ResponseClass.OtherStatus, WriteOutcome.Failed)]
    [InlineData(404, false, ResponseClass.OtherStatus, WriteOutcome.Failed)]
    public void AnswersAreClassifiedAndOnlyA4xxIsASureRefusal(int status, bool acknowledged, ResponseClass expected, WriteOutcome outcome)
    {
        var responseClass = ResponseClasses.Of(status, acknowledged);
        Assert.Equal(expected, responseClass);
        Assert.Equal(outcome, ResponseClasses.Outcome(responseClass, status));
        Assert.Equal(WriteOutcome.InDoubt, ResponseClasses.Outcome(ResponseClass.Timeout, 0));
        Assert.Equal(WriteOutcome.InDoubt, ResponseClasses.Outcome(ResponseClass.Connection, 0));
    }

    private static void Complete(ICrashWorkload workload, WriteRecord write, int status, string body, ResponseClass? noAnswer = null)
    {
        var bytes = Encoding.UTF8.GetBytes(body);
        write.Status = status;
        write.Class = noAnswer ?? ResponseClasses.Of(status, status is >= 200 and < 300 && workload.Acknowledges(write, status, bytes));
        write.Outcome = ResponseClasses.Outcome(write.Class, status);
        workload.Completed(write);
    }
}
