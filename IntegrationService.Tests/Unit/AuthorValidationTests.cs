using IntegrationService.Authors;

namespace IntegrationService.Tests.Unit;

public sealed class AuthorValidationTests
{
    private static readonly Author Valid = new() { Name = "alexander", FamilyName = "pushkin", Age = 20, BooksCount = 10 };

    private static string[] Errors(Author author) => AuthorValidator.Validate(author)?.Keys.Order().ToArray() ?? [];

    [Fact]
    public void AValidAuthorHasNoErrors() => Assert.Empty(Errors(Valid));

    [Theory]
    [InlineData(-1)]
    [InlineData(256)]
    [InlineData(300)]
    public void AgeOutsideAByteIsInvalid(int age) => Assert.Equal(["age"], Errors(Valid with { Age = age }));

    [Theory]
    [InlineData(0)]
    [InlineData(255)]
    public void AgeAtTheByteBoundsIsValid(int age) => Assert.Empty(Errors(Valid with { Age = age }));

    [Fact]
    public void BooksCountOutsideAByteIsInvalid() => Assert.Equal(["booksCount"], Errors(Valid with { BooksCount = 256 }));

    [Fact]
    public void NameAndFamilyNameAreRequired()
    {
        Assert.Equal(["name"], Errors(Valid with { Name = "" }));
        Assert.Equal(["familyName"], Errors(Valid with { FamilyName = "" }));
    }

    [Fact]
    public void StringsAreAtMost256Characters()
    {
        Assert.Empty(Errors(Valid with { BirthCity = new string('x', 256) }));
        Assert.Equal(["birthCity"], Errors(Valid with { BirthCity = new string('x', 257) }));
        Assert.Equal(["name"], Errors(Valid with { Name = new string('x', 257) }));
    }

    [Fact]
    public void EveryBrokenFieldIsReported() =>
        Assert.Equal(["age", "familyName", "middleName", "name"],
            Errors(Valid with { Name = "", FamilyName = null!, MiddleName = new string('x', 257), Age = -5 }));

    // Built in code: a lone surrogate in [InlineData] would be turned into U+FFFD by test discovery.
    [Fact]
    public void NulAndUnpairedSurrogatesAreInvalid()
    {
        string[] texts = ["a\u0000b", new string((char)0xD800, 1), "x" + (char)0xDC00 + "y", new string((char)0xD800, 2), "😀"[..1]];
        foreach (var text in texts)
        {
            Assert.Equal(["birthCity"], Errors(Valid with { BirthCity = text }));
            Assert.Equal(["name"], Errors(Valid with { Name = text }));
        }
    }

    [Theory]
    [InlineData("😀")]
    [InlineData("ä\u0001\t")]
    [InlineData("\ud83d\ude00x")]
    public void OtherUnicodeIsValid(string text) => Assert.Empty(Errors(Valid with { Name = text }));
}
