using Notifications.IntegrationTests.Infrastructure.Containers;

namespace Notifications.IntegrationTests.Containers;

/// <summary>Which image a Testcontainers fixture starts, from NOTIFICATIONS_TEST_IMAGES and NOTIFICATIONS_TEST_*_IMAGE.</summary>
public sealed class ContainerImagesTests
{
    private const string Variable = "NOTIFICATIONS_TEST_POSTGRES_IMAGE";

    [Theory]
    [InlineData(null, null, "postgres:15")]
    [InlineData(null, "official", "postgres:15")]
    [InlineData(null, "local", "notifications/postgres:local")]
    [InlineData("registry.example/postgres:16", "local", "registry.example/postgres:16")]
    [InlineData("registry.example/postgres:16", null, "registry.example/postgres:16")]
    public void Choose_ImageVariableAndSet_ExactImageWinsThenTheSet(string? image, string? set, string expected)
    {
        var environment = new Dictionary<string, string?> { [Variable] = image, [ContainerImages.SetVariable] = set };

        Assert.Equal(expected, ContainerImages.Choose(Variable, "postgres:15", "notifications/postgres:local", environment.GetValueOrDefault));
    }

    [Fact]
    public void Choose_LocalSetWithoutALocalBuild_TakesTheOfficialImage()
    {
        var environment = new Dictionary<string, string?> { [ContainerImages.SetVariable] = "local" };

        Assert.Equal("mcr.microsoft.com/mssql/server:2022-latest",
            ContainerImages.Choose("NOTIFICATIONS_TEST_SQLSERVER_IMAGE", "mcr.microsoft.com/mssql/server:2022-latest", null, environment.GetValueOrDefault));
    }

    [Fact]
    public void Choose_UnknownSet_FailsNamingTheChoices()
    {
        var environment = new Dictionary<string, string?> { [ContainerImages.SetVariable] = "debian" };

        var error = Assert.Throws<InvalidOperationException>(
            () => ContainerImages.Choose(Variable, "postgres:15", "notifications/postgres:local", environment.GetValueOrDefault));

        Assert.Contains("NOTIFICATIONS_TEST_IMAGES=debian is not understood: use 'official' (default) or 'local', or name an image in NOTIFICATIONS_TEST_POSTGRES_IMAGE", error.Message, StringComparison.Ordinal);
    }
}
