package dev.lnp.web.console;

import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.Subject;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import java.io.IOException;
import java.net.URI;

/**
 * The provider's userinfo endpoint, asked with the sign-in's access token when the ID token leaves out the e-mail
 * address or the groups (providers may put claims in one place only: a Keycloak client whose mappers add them to
 * userinfo alone, an ID token kept small). Its answer counts only for the person the ID token names: OpenID Connect
 * Core 5.3.4, a {@code sub} that differs is refused, so a substituted answer cannot sign in someone else.
 */
final class OidcUserInfo {

    private OidcUserInfo() {
    }

    /** The claims the endpoint returns for {@code subject}; plain JSON only (a signed or encrypted answer is refused). */
    static UserInfo fetch(URI endpoint, AccessToken accessToken, Subject subject, int timeoutMillis)
            throws OidcProvider.Unavailable, OidcProvider.Rejected {
        HTTPRequest request = new UserInfoRequest(endpoint, accessToken).toHTTPRequest();
        request.setConnectTimeout(timeoutMillis);
        request.setReadTimeout(timeoutMillis);
        request.setAccept("application/json");
        UserInfoResponse response;
        try {
            response = UserInfoResponse.parse(request.send());
        } catch (IOException e) {
            throw new OidcProvider.Unavailable("its userinfo endpoint could not be reached (" + e.getMessage() + ")",
                    e);
        } catch (ParseException e) {
            throw new OidcProvider.Rejected("its userinfo endpoint's answer could not be read (" + e.getMessage()
                    + ")", e);
        }
        if (!response.indicatesSuccess()) {
            ErrorObject error = response.toErrorResponse().getErrorObject();
            throw new OidcProvider.Rejected("its userinfo endpoint refused the access token ("
                    + describe(error) + ")", null);
        }
        UserInfo info = response.toSuccessResponse().getUserInfo();
        if (info == null) {
            throw new OidcProvider.Rejected("its userinfo endpoint answered with a signed or encrypted JWT; configure "
                    + "the client to answer userinfo requests with plain JSON", null);
        }
        if (!subject.equals(info.getSubject())) {
            throw new OidcProvider.Rejected("its userinfo endpoint answered for another person (sub "
                    + info.getSubject() + ", the ID token's is " + subject + ")", null);
        }
        return info;
    }

    private static String describe(ErrorObject error) {
        if (error == null || error.getCode() == null) {
            return error == null ? "no reason given" : "HTTP " + error.getHTTPStatusCode();
        }
        return error.getDescription() == null ? error.getCode() : error.getCode() + ": " + error.getDescription();
    }
}
