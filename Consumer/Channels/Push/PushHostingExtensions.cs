using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Http;
using Notifications.Consumer.Channels.Push.Apns;
using Notifications.Consumer.Channels.Push.Fcm;
using Polly;

namespace Notifications.Consumer.Channels.Push;

/// <summary>DI wiring of the push channel (section <c>Push</c>).</summary>
internal static class PushHostingExtensions
{
    public static IServiceCollection AddPushChannel(this IServiceCollection services)
    {
        services.AddOptions<PushOptions>().BindConfiguration(PushOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();
        foreach (string name in (string[])[FcmProvider.ClientName, FcmProvider.TokenClientName, ApnsProvider.ClientName])
        {
            services.AddHttpClient(name, client => client.Timeout = Timeout.InfiniteTimeSpan)
                .ConfigurePrimaryHttpMessageHandler(sp => CreateHandler(sp.GetRequiredService<IOptions<PushOptions>>().Value))
                // The clients live as long as the process (one each, shared): connections are renewed by the handler below.
                .SetHandlerLifetime(Timeout.InfiniteTimeSpan)
                .AddResilienceHandler(name + ".attempt", (pipeline, context) =>
                    pipeline.AddTimeout(context.ServiceProvider.GetRequiredService<IOptions<PushOptions>>().Value.Timeout));
        }

        services.AddSingleton<PushProviders>();
        services.AddSingleton<PushSender>();
        services.AddSingleton<IChannel, PushChannel>();
        return services;
    }

    // HTTP/2 with connection reuse: one connection carries many concurrent streams; more open when the server's stream limit is
    // reached. Renewed every few minutes so a provider's DNS changes are followed.
    private static SocketsHttpHandler CreateHandler(PushOptions options) => new()
    {
        SslOptions = TrustedCertificates.ClientOptions(options.TrustFile, options.TrustKey),
        EnableMultipleHttp2Connections = true,
        PooledConnectionLifetime = TimeSpan.FromMinutes(10),
        PooledConnectionIdleTimeout = TimeSpan.FromMinutes(2),
        KeepAlivePingDelay = TimeSpan.FromSeconds(60),
        KeepAlivePingTimeout = TimeSpan.FromSeconds(20),
        AutomaticDecompression = DecompressionMethods.None,
        AllowAutoRedirect = false,
    };
}
