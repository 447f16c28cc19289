using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Notifications.Shared.Hosting;

namespace Notifications.Gateway;

/// <summary>DI wiring of the gateway: the database, the token check, the pending notifications and the public server.</summary>
public static class GatewayHostingExtensions
{
    /// <summary>Adds the gateway and everything it needs.</summary>
    public static IHostApplicationBuilder AddGateway(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddNotificationsDatabase("notifications-gateway", DatabaseOptions.ConsumerPoolSize);
        services.AddOptions<GatewayOptions>().BindConfiguration(GatewayOptions.SectionName)
            .ValidateDataAnnotations()
            .Validate(o => IsKey(o.TokenKey), "Gateway:TokenKey must be at least 32 random bytes in base64 (the key the app signs its clients' tokens with)")
            .ValidateOnStart();
        services.AddSingleton<LiveTokenCheck>();
        services.AddSingleton<PendingStore>();
        services.AddSingleton<LiveServer>();
        services.AddHostedService(sp => sp.GetRequiredService<LiveServer>());
        return builder;
    }

    private static bool IsKey(string value)
    {
        Span<byte> bytes = stackalloc byte[256];
        return Convert.TryFromBase64String(value, bytes, out int length) && length >= 32;
    }
}
