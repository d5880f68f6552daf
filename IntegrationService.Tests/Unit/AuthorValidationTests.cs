using System.ComponentModel.DataAnnotations;
using IntegrationService.Authors;

namespace IntegrationService.Tests.Unit;

public sealed class AuthorValidationTests
{
    private static readonly Author Valid = new() { Name = "alexander", FamilyName = "pushkin", Age = 20, BooksCount = 10 };

    private static string[] Errors(Author author)
    {
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(author, new ValidationContext(author), results, validateAllProperties: true);
        return results.SelectMany(r => r.MemberNames).ToArray();
    }

    [Fact]
    public void AValidAuthorHasNoErrors() => Assert.Empty(Errors(Valid));

    [Theory]
    [InlineData(-1)]
    [InlineData(256)]
    [InlineData(300)]
    public void AgeOutsideAByteIsInvalid(int age) => Assert.Equal(["Age"], Errors(Valid with { Age = age }));

    [Theory]
    [InlineData(0)]
    [InlineData(255)]
    public void AgeAtTheByteBoundsIsValid(int age) => Assert.Empty(Errors(Valid with { Age = age }));

    [Fact]
    public void BooksCountOutsideAByteIsInvalid() => Assert.Equal(["BooksCount"], Errors(Valid with { BooksCount = 256 }));

    [Fact]
    public void NameAndFamilyNameAreRequired()
    {
        Assert.Equal(["Name"], Errors(Valid with { Name = "" }));
        Assert.Equal(["FamilyName"], Errors(Valid with { FamilyName = "" }));
    }

    [Fact]
    public void StringsAreAtMost256Characters()
    {
        Assert.Empty(Errors(Valid with { BirthCity = new string('x', 256) }));
        Assert.Equal(["BirthCity"], Errors(Valid with { BirthCity = new string('x', 257) }));
        Assert.Equal(["Name"], Errors(Valid with { Name = new string('x', 257) }));
    }
}
