// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @title TestUSDC
/// @notice A USDC-like token for local chains and tests: 6 decimals, open mint, and EIP-3009
/// `transferWithAuthorization` / `receiveWithAuthorization` / `cancelAuthorization` as used by the x402 payment flow.
/// @dev Never deploy outside a development chain: anyone can mint.
contract TestUSDC is ERC20, EIP712 {
    /// @notice EIP-3009 type hash of the authorization `transferWithAuthorization` checks (as in Circle's FiatToken).
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice EIP-3009 type hash of the authorization `receiveWithAuthorization` checks (as in Circle's FiatToken).
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice EIP-3009 type hash of the cancellation `cancelAuthorization` checks (as in Circle's FiatToken).
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH = keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    /// @notice An authorization nonce of `authorizer` was used.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    /// @notice An authorization nonce of `authorizer` was cancelled.
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @notice The authorization is not valid yet, or no longer.
    error TestUSDCAuthorizationNotInWindow(uint256 validAfter, uint256 validBefore, uint256 nowTimestamp);
    /// @notice The nonce was used or cancelled.
    error TestUSDCAuthorizationUsed(address authorizer, bytes32 nonce);
    /// @notice The signature is not the authorizer's.
    error TestUSDCInvalidSignature(address authorizer);
    /// @notice receiveWithAuthorization must be called by the payee.
    error TestUSDCCallerNotPayee(address caller, address payee);

    mapping(address authorizer => mapping(bytes32 nonce => bool used)) private _authorizationStates;

    constructor() ERC20("USD Coin (test)", "USDC") EIP712("USD Coin", "2") {}

    /// @notice 6 decimals, as USDC.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` to `to`. Open to anyone: a test token.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Whether `nonce` of `authorizer` was used or cancelled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    /// @notice The EIP-712 domain separator.
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice Moves `value` from `from` to `to` with `from`'s signed authorization (EIP-3009).
    function transferWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes calldata signature
    ) external {
        _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
        _transfer(from, to, value);
    }

    /// @notice As transferWithAuthorization, but only the payee may submit it (front-running safe).
    function receiveWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes calldata signature
    ) external {
        if (msg.sender != to) revert TestUSDCCallerNotPayee(msg.sender, to);
        _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
        _transfer(from, to, value);
    }

    /// @notice Cancels an unused authorization nonce of `authorizer`.
    function cancelAuthorization(address authorizer, bytes32 nonce, bytes calldata signature) external {
        if (_authorizationStates[authorizer][nonce]) revert TestUSDCAuthorizationUsed(authorizer, nonce);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)));
        if (!SignatureChecker.isValidSignatureNow(authorizer, digest, signature)) revert TestUSDCInvalidSignature(authorizer);
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _useAuthorization(
        bytes32 typeHash, address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes calldata signature
    ) private {
        if (block.timestamp <= validAfter || block.timestamp >= validBefore) {
            revert TestUSDCAuthorizationNotInWindow(validAfter, validBefore, block.timestamp);
        }
        if (_authorizationStates[from][nonce]) revert TestUSDCAuthorizationUsed(from, nonce);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce)));
        if (!SignatureChecker.isValidSignatureNow(from, digest, signature)) revert TestUSDCInvalidSignature(from);
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }
}
