using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.RateLimiting;
using Notifications.Shared.Data;
using Polly;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>DI wiring of the webhook channel: options, endpoint cache and refresh, the two HTTP clients, the channel.</summary>
internal static class WebhookHostingExtensions
{
    public static IServiceCollection AddWebhookChannel(this IServiceCollection services)
    {
        services.AddOptions<WebhookOptions>().BindConfiguration(WebhookOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<WebhookEndpoints>();
        services.AddSingleton<WebhookSigner>();
        services.AddSingleton<RetryAfterPauses>();
        services.TryAddSingleton<IWebhookHostResolver, DnsHostResolver>();
        services.AddHostedService<WebhookEndpointRefreshService>();
        services.AddSingleton(sp => new WebhookSenderParts(
            sp.GetRequiredService<IOptions<WebhookOptions>>().Value, sp.GetRequiredService<RetryAfterPauses>(),
            sp.GetRequiredService<FleetRateLimiter>(), sp.GetRequiredService<RateLimitSettings>(), sp.GetRequiredService<WebhookSigner>(),
            sp.GetRequiredService<WebhookEndpoints>(), sp.GetRequiredService<IWebhookEndpointStore>(), sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(WebhookSender))));
        AddClient(services, WebhookChannel.PublicClient, allowPrivate: false);
        AddClient(services, WebhookChannel.PrivateClient, allowPrivate: true);
        services.AddSingleton<IChannel, WebhookChannel>();
        return services;
    }

    // One pooled handler per kind for the process's lifetime (connections renewed by ConnectionLifetime, so DNS is re-read
    // and re-checked); the attempt's timeout from Microsoft.Extensions.Http.Resilience; the breaker is the channel's, per endpoint.
    private static void AddClient(IServiceCollection services, string name, bool allowPrivate) =>
        services.AddHttpClient(name, client => client.Timeout = Timeout.InfiniteTimeSpan)
            .ConfigurePrimaryHttpMessageHandler(sp => WebhookConnector.Handler(allowPrivate, Options(sp), sp.GetRequiredService<IWebhookHostResolver>()))
            .SetHandlerLifetime(Timeout.InfiniteTimeSpan)
            // IHttpClientFactory's own log lines carry the request's URI, which may hold the endpoint's token.
            .RemoveAllLoggers()
            .AddResilienceHandler(name + "-attempt", (pipeline, context) =>
                pipeline.AddTimeout(Options(context.ServiceProvider).Timeout));

    private static WebhookOptions Options(IServiceProvider sp) => sp.GetRequiredService<IOptions<WebhookOptions>>().Value;
}
