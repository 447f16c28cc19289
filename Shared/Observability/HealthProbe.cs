using System.Net;
using Microsoft.Extensions.Configuration;

namespace Notifications.Shared.Observability;

/// <summary>
/// The worker binary's <c>--healthcheck [live|ready|started]</c> mode, for container healthchecks in an image
/// without curl: asks the running worker's endpoint and exits 0 (healthy) or 1.
/// </summary>
public static class HealthProbe
{
    /// <summary>Whether <paramref name="args"/> ask for the probe instead of the worker.</summary>
    public static bool IsRequested(string[] args) => args is ["--healthcheck", ..];

    /// <summary>Reads the same configuration as the worker (appsettings.json, environment, command line) and probes.</summary>
    public static async Task<int> RunAsync(string[] args, int defaultPort)
    {
        ArgumentNullException.ThrowIfNull(args);
        int consumed = args.Length > 1 && !args[1].StartsWith("--", StringComparison.Ordinal) ? 2 : 1;
        string check = consumed == 2 ? args[1] : "live";
        if (check is not ("live" or "ready" or "started"))
        {
            await Console.Error.WriteLineAsync($"usage: --healthcheck [live|ready|started]   ('{check}' is none of them)");
            return 2;
        }

        var configuration = new ConfigurationBuilder()
            .SetBasePath(AppContext.BaseDirectory)
            .AddJsonFile("appsettings.json", optional: true)
            .AddEnvironmentVariables()
            .AddCommandLine(args[consumed..])
            .Build();
        var options = new OperationsOptions { Port = defaultPort };
        configuration.GetSection(OperationsOptions.SectionName).Bind(options);
        string host = options.Address is "0.0.0.0" or "::" or "[::]" ? "127.0.0.1" : options.Address;
        var uri = new Uri($"http://{(host.Contains(':', StringComparison.Ordinal) ? $"[{host}]" : host)}:{options.Port}/health/{check}");
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        try
        {
            using var response = await client.GetAsync(uri);
            string body = await response.Content.ReadAsStringAsync();
            await Console.Out.WriteAsync($"{uri}: {(int)response.StatusCode} {body}");
            return response.StatusCode == HttpStatusCode.OK ? 0 : 1;
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException)
        {
            await Console.Error.WriteLineAsync($"{uri}: unreachable: {ex.Message}");
            return 1;
        }
    }
}
