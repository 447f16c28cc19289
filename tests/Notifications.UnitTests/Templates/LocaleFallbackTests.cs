using Notifications.Shared.Templates;

namespace Notifications.UnitTests.Templates;

public sealed class LocaleFallbackTests
{
    // The store's order: the template's own default (its first locale put) first.
    private static readonly string[] Stored = ["de", "en", "pt", "pt-BR"];

    [Theory]
    [InlineData("pt-BR", "pt-BR")]
    [InlineData("pt-PT", "pt")]
    [InlineData("PT-br", "pt-BR")]
    [InlineData("pt_BR", "pt-BR")]
    [InlineData("fr-CA", "en")]
    [InlineData(null, "en")]
    [InlineData("zh-Hant-TW", "en")]
    public void Choose_WantedLocale_FallsBackThroughParentsToTheDefault(string? wanted, string expected)
    {
        Assert.Equal(expected, LocaleFallback.Choose(Stored, l => l, wanted, defaultLocale: "en"));
    }

    [Fact]
    public void Choose_NeitherWantedNorDefaultStored_TakesTheTemplatesFirstLocale()
    {
        Assert.Equal("de", LocaleFallback.Choose(Stored, l => l, "fr", defaultLocale: "es"));
    }

    [Fact]
    public void Choose_NoLocaleStored_IsNull()
    {
        Assert.Null(LocaleFallback.Choose(Array.Empty<string>(), l => l, "en", "en"));
    }

    [Fact]
    public void Chain_RegionalTag_ListsParentsThenDefault()
    {
        Assert.Equal(["zh-Hant-TW", "zh-Hant", "zh", "en"], LocaleFallback.Chain("zh-Hant-TW", "en"));
    }
}
